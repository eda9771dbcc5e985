package graph

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/mcpserver"
)

// underGraph puts sub under a `graph` command with its --repo, as NewCmdGraph does.
func underGraph(sub *cobra.Command) *cobra.Command {
	g := &cobra.Command{Use: "graph"}
	g.PersistentFlags().String("repo", "", "")
	g.AddCommand(sub)
	return g
}

func TestFlagsReachTheOptions(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	var q *QueryOptions
	if err := cmdtest.Run(underGraph(NewCmdQuery(f, func(o *QueryOptions) error { q = o; return nil })),
		"--repo", "/r", "query", "impact", "pkg.F", "--depth", "2", "--detail", "ids", "--json"); err != nil {
		t.Fatal(err)
	}
	if q.Repo != "/r" || q.Kind != "impact" || q.Symbol != "pkg.F" || q.Depth != 2 || q.Shape.Detail != "ids" || !q.JSON {
		t.Errorf("query: %+v", q)
	}
	var s *SQLOptions
	if err := cmdtest.Run(underGraph(NewCmdSQL(f, func(o *SQLOptions) error { s = o; return nil })),
		"sql", "SELECT 1", "--max-rows", "5", "--max-bytes", "100", "--timeout", "2s"); err != nil {
		t.Fatal(err)
	}
	if s.Repo != "" || s.Query != "SELECT 1" || s.MaxRows != 5 || s.MaxBytes != 100 || s.Timeout != 2*time.Second {
		t.Errorf("sql: %+v", s)
	}
	var ix *IndexOptions
	if err := cmdtest.Run(NewCmdIndex(f, func(o *IndexOptions) error { ix = o; return nil }),
		"src", "--rebuild", "--exclude", "a/**", "--exclude", "b", "--json"); err != nil {
		t.Fatal(err)
	}
	if ix.Path != "src" || !ix.Rebuild || strings.Join(ix.Excludes, ",") != "a/**,b" || !ix.JSON {
		t.Errorf("index: %+v", ix)
	}
	var c *CommunitiesOptions
	if err := cmdtest.Run(NewCmdCommunities(f, func(o *CommunitiesOptions) error { c = o; return nil }),
		"pkg.F", "--resolution", "2.5", "--limit", "3", "--offset", "6", "--members", "4"); err != nil {
		t.Fatal(err)
	}
	if c.Symbol != "pkg.F" || c.Resolution != 2.5 || c.Limit != 3 || c.Offset != 6 || c.Members != 4 {
		t.Errorf("communities: %+v", c)
	}
	var cc *CoChangeOptions
	if err := cmdtest.Run(NewCmdCoChange(f, func(o *CoChangeOptions) error { cc = o; return nil }), "a.go", "--commits", "10"); err != nil || cc.File != "a.go" || cc.Commits != 10 {
		t.Errorf("cochange: %+v %v", cc, err)
	}
	var ch *ChangesOptions
	if err := cmdtest.Run(NewCmdChanges(f, func(o *ChangesOptions) error { ch = o; return nil }), "--base", "main"); err != nil || ch.Base != "main" {
		t.Errorf("changes: %+v %v", ch, err)
	}
	var ui *UIOptions
	if err := cmdtest.Run(NewCmdUI(f, func(o *UIOptions) error { ui = o; return nil }), "--addr", "127.0.0.1:9999", "--open"); err != nil || ui.Addr != "127.0.0.1:9999" || !ui.Open {
		t.Errorf("ui: %+v %v", ui, err)
	}
	var ex *ExportOptions
	if err := cmdtest.Run(NewCmdExport(f, func(o *ExportOptions) error { ex = o; return nil }), "-o", "x.zst"); err != nil || ex.Output != "x.zst" {
		t.Errorf("export: %+v %v", ex, err)
	}
	var im *ImportOptions
	if err := cmdtest.Run(NewCmdImport(f, func(o *ImportOptions) error { im = o; return nil }), "x.zst"); err != nil || im.File != "x.zst" {
		t.Errorf("import: %+v %v", im, err)
	}
}

// --profile beats the environment's profile, which beats full.
func TestMCPProfileOrder(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	var got *MCPOptions
	keep := func(o *MCPOptions) error { got = o; return nil }
	if err := cmdtest.Run(NewCmdMCP(f, keep)); err != nil || got.Profile != "" {
		t.Errorf("no flag, no variable: %+v %v (the server reads empty as full)", got, err)
	}
	env := f.LookupEnv
	f.LookupEnv = func(k string) (string, bool) {
		if k == mcpserver.ProfileEnv {
			return "core", true
		}
		return env(k)
	}
	if err := cmdtest.Run(NewCmdMCP(f, keep)); err != nil || got.Profile != "core" {
		t.Errorf("variable: %+v %v", got, err)
	}
	if err := cmdtest.Run(NewCmdMCP(f, keep), "--profile", "full"); err != nil || got.Profile != "full" {
		t.Errorf("flag: %+v %v", got, err)
	}
	err := cmdtest.Run(NewCmdMCP(f, nil), "--profile", "tiny")
	var exit *cmdutil.Exit
	if !errors.As(err, &exit) || exit.Code != cmdutil.ExitUsage || !strings.Contains(err.Error(), "tiny") {
		t.Errorf("--profile tiny: %v", err)
	}
}

func TestBadInputIsRefused(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	repo := t.TempDir()
	var exit *cmdutil.Exit
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"query", "callers"}, "accepts 2 arg(s)", -1},
		{[]string{"sql", "SELECT 1", "--timeout", "forever"}, "--timeout", -1},
		{[]string{"--repo", repo, "query", "callers", "x", "--detail", "all"}, "detail", cmdutil.ExitUsage},
		{[]string{"--repo", repo, "query", "callers", "x"}, repo + " has no index yet: run `albert-code graph index " + repo + "`", cmdutil.ExitUsage},
		{[]string{"index", filepath.Join(repo, "absent")}, "not a directory", cmdutil.ExitUsage},
		{[]string{"import", filepath.Join(repo, "absent.zst")}, "import " + filepath.Join(repo, "absent.zst"), cmdutil.ExitUsage},
	} {
		err := cmdtest.Run(NewCmdGraph(f), tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
			continue
		}
		if tc.code > 0 && (!errors.As(err, &exit) || exit.Code != tc.code) {
			t.Errorf("%v: %v is not exit %d", tc.args, err, tc.code)
		}
	}
}

// A small repository indexed and questioned in-process: the report, an answer,
// SQL, the status and the entry points as the user reads them.
func TestIndexThenAsk(t *testing.T) {
	f, stdout, stderr := cmdtest.Factory(t)
	repo := t.TempDir()
	for name, src := range map[string]string{
		"app.py":  "from lib import helper\n\ndef main():\n    return helper()\n",
		"lib.py":  "def helper():\n    return 1\n",
		"blob.js": strings.Repeat("x", 10),
	} {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) string {
		t.Helper()
		stdout.Reset()
		if err := cmdtest.Run(NewCmdGraph(f), args...); err != nil {
			t.Fatalf("graph %v: %v\n%s", args, err, stderr.String())
		}
		return stdout.String()
	}

	out := run("index", repo)
	db := filepath.Join(repo, ".albert-code", "graph", "graph.db")
	if !strings.HasPrefix(out, "indexed "+repo+" in ") || !strings.Contains(out, "3 files (3 extracted, 0 unchanged") || !strings.HasSuffix(out, "index: "+db+"\n") {
		t.Errorf("index report:\n%s", out)
	}

	out = run("--repo", repo, "query", "callers", "helper")
	if !strings.HasPrefix(out, "callers of helper: 1 result(s)") || !strings.Contains(out, "app.py:3") || !strings.Contains(out, "main") {
		t.Errorf("callers:\n%s", out)
	}

	out = run("--repo", repo, "sql", "SELECT name FROM nodes WHERE name = 'helper'")
	if out != "name\nhelper\n" {
		t.Errorf("sql:\n%q", out)
	}
	out = run("--repo", repo, "sql", "SELECT name FROM nodes WHERE name = 'helper'", "--json")
	var ans struct {
		Columns []string `json:"columns"`
		Rows    [][]any  `json:"rows"`
	}
	if json.Unmarshal([]byte(out), &ans) != nil || len(ans.Rows) != 1 || ans.Columns[0] != "name" {
		t.Errorf("sql --json:\n%s", out)
	}

	out = run("--repo", repo, "status")
	if !strings.HasPrefix(out, repo+": 3 files, ") || !strings.Contains(out, "index fresh") {
		t.Errorf("status:\n%s", out)
	}
	out = run("--repo", repo, "stats")
	var stats struct {
		Stats struct {
			Files int `json:"files"`
		} `json:"stats"`
		Freshness struct {
			Status string `json:"status"`
		} `json:"freshness"`
	}
	if json.Unmarshal([]byte(out), &stats) != nil || stats.Stats.Files != 3 || stats.Freshness.Status != "fresh" {
		t.Errorf("stats:\n%s", out)
	}
	if out = run("--repo", repo, "entrypoints"); !strings.Contains(out, "entry point(s)") {
		t.Errorf("entrypoints:\n%s", out)
	}
	if out = run("schema"); !strings.Contains(out, "CREATE TABLE") {
		t.Errorf("schema:\n%s", out)
	}
}

func TestGoErrorsAreListedOnOneLineEach(t *testing.T) {
	var b strings.Builder
	errs := []golang.Error{
		{Msg: "# example.com/m/a\na.go:3:2: undefined: x"},
		{Msg: `could not import example.com/dep (no required module provides package "example.com/dep")`},
	}
	for range 5 {
		errs = append(errs, golang.Error{Msg: "b.go:1:1: syntax error"})
	}
	printGoErrors(&b, 9, errs)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 7 || lines[0] != "  a.go:3:2: undefined: x" || !strings.Contains(lines[5], "... and 4 more") ||
		!strings.Contains(lines[6], "go mod download") {
		t.Fatalf("%q", b.String())
	}
}
