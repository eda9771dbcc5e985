package textref

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

func render(t *testing.T, ff graph.FileFacts) []string {
	t.Helper()
	var out []string
	for _, n := range ff.Nodes {
		if n.File != ff.Path {
			t.Errorf("node %s in file %q, want %q", n.QName, n.File, ff.Path)
		}
		out = append(out, fmt.Sprintf("node %s %s %q %d-%d", n.Kind, n.QName, n.Name, n.Line, n.EndLine))
	}
	for _, e := range ff.Edges {
		if e.File != ff.Path {
			t.Errorf("edge %s -> %s in file %q", e.From, e.To, e.File)
		}
		out = append(out, fmt.Sprintf("edge %s %s -> %s %.1f @%d", e.Kind, e.From, e.To, e.Confidence, e.Line))
	}
	for _, u := range ff.Unresolved {
		out = append(out, fmt.Sprintf("unresolved %s %s -> %s @%d (%s)", u.Kind, u.From, u.Name, u.Line, u.Reason))
	}
	slices.Sort(out)
	return out
}

func expect(t *testing.T, ff graph.FileFacts, want []string) {
	t.Helper()
	got := render(t, ff)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMarkdownHeadingsAndLinks(t *testing.T) {
	t.Parallel()
	src := "# The `graph` guide\n\n" +
		"See [the schema](graph-schema.md#tables), [SQL](#sql) and [the code](../internal/graph/model.go#L10).\n" +
		"![diagram](img/flow%20chart.png \"Flow\")\n\n" +
		"## SQL\n\n" +
		"[home](https://example.org/x.md), [mail](mailto:a@b.c), [root](/README.md), [out](../../etc/passwd)\n\n" +
		"```sh\n[not a link](nowhere.md)\n```\n\n" +
		"## SQL\n\n" +
		"[ref link][r]\n\n[r]: ./setup.md\n"
	ff, err := Markdown(context.Background(), "docs/graph.md", "markdown", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	expect(t, ff, []string{
		`node file docs/graph.md "graph.md" 1-18`,
		`node section docs/graph.md::#the-graph-guide "#the-graph-guide" 1-5`,
		`node section docs/graph.md::#sql "#sql" 6-13`,
		`node section docs/graph.md::#sql-1 "#sql-1" 14-18`,
		`edge contains docs/graph.md -> docs/graph.md::#the-graph-guide 1.0 @1`,
		`edge contains docs/graph.md -> docs/graph.md::#sql 1.0 @6`,
		`edge contains docs/graph.md -> docs/graph.md::#sql-1 1.0 @14`,
		`edge references docs/graph.md -> docs/graph-schema.md::#tables 1.0 @3`,
		`edge references docs/graph.md -> docs/graph.md::#sql 1.0 @3`,
		`edge references docs/graph.md -> internal/graph/model.go 1.0 @3`,
		`edge references docs/graph.md -> docs/img/flow chart.png 1.0 @4`,
		`edge references docs/graph.md -> README.md 1.0 @8`,
		`unresolved references docs/graph.md -> ../../etc/passwd @8 (a path outside the repository)`,
		`edge references docs/graph.md -> docs/setup.md 1.0 @16`,
	})
}

func TestShellSourceFunctionsAndCalls(t *testing.T) {
	t.Parallel()
	src := `#!/usr/bin/env bash
set -euo pipefail
. ./lib/common.sh
source "$(dirname "$0")/lib/log.sh"
source "${SCRIPT_DIR}/env.sh" # with a comment
source "$HOME/.profile"
source ../../outside.sh

# build: compile everything
build() {
  log "building"   # log is defined in log.sh
  if check; then compile; fi
}

function check {
  [ -f go.mod ]
}

compile() { go build ./...; }

cat <<EOF
build
EOF
build && check
`
	ff, err := Shell(context.Background(), "scripts/ci.sh", "shell", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	expect(t, ff, []string{
		`node file scripts/ci.sh "ci.sh" 1-24`,
		`node function scripts/ci.sh::build "build" 10-13`,
		`node function scripts/ci.sh::check "check" 15-17`,
		`node function scripts/ci.sh::compile "compile" 19-19`,
		`edge contains scripts/ci.sh -> scripts/ci.sh::build 1.0 @10`,
		`edge contains scripts/ci.sh -> scripts/ci.sh::check 1.0 @15`,
		`edge contains scripts/ci.sh -> scripts/ci.sh::compile 1.0 @19`,
		`edge imports scripts/ci.sh -> scripts/lib/common.sh 0.8 @3`,
		`edge imports scripts/ci.sh -> scripts/lib/log.sh 1.0 @4`,
		`edge imports scripts/ci.sh -> scripts/env.sh 1.0 @5`,
		`unresolved imports scripts/ci.sh -> $HOME/.profile @6 (a path computed at run time)`,
		`unresolved imports scripts/ci.sh -> ../../outside.sh @7 (a path outside the repository)`,
		`edge calls scripts/ci.sh::build -> scripts/ci.sh::check 0.9 @12`,
		`edge calls scripts/ci.sh::build -> scripts/ci.sh::compile 0.9 @12`,
		`edge calls scripts/ci.sh -> scripts/ci.sh::build 0.9 @24`,
		`edge calls scripts/ci.sh -> scripts/ci.sh::check 0.9 @24`,
	})
}
