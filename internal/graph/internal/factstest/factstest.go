// Package factstest runs extractor tests written as fixtures: one txtar archive
// under testdata holds the source files an extractor reads and, in its
// `expected` section, the facts it must produce, one a line, in the text form
// the test package renders. `go test -update` rewrites the expected sections
// from what the extractor produces now; the diff is then reviewed like code.
// Only tests import it.
package factstest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected section of every fixture the tests read")

// ExpectedSection names the archive file that holds the expected facts.
const ExpectedSection = "expected"

// Fixture is one archive. Its comment is a description followed by header
// lines:
//
//	language: php          the language the extractor is given (required)
//	references: omitted    reference facts are neither listed nor compared
type Fixture struct {
	Path        string
	Description string
	Language    string
	// OmitReferences leaves out the `references` edges and unresolved sites:
	// the fixture is about definitions, calls and imports.
	OmitReferences bool
	Sources        []txtar.File

	archive  *txtar.Archive
	expected []string // nil when the archive has no expected section
}

// Glob lists the fixtures matching pattern, and fails when there are none (a
// moved testdata folder would otherwise pass every test).
func Glob(t *testing.T, pattern string) []string {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no fixture matches %s", pattern)
	}
	return paths
}

// Name is the fixture's file name without its extension, for t.Run.
func Name(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// Load reads the fixture at path, and fails the test when it is malformed.
func Load(t *testing.T, path string) *Fixture {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Parse reads a fixture from data; path names it in errors.
func Parse(path string, data []byte) (*Fixture, error) {
	a := txtar.Parse(data)
	f := &Fixture{Path: path, archive: a}
	var desc []string
	for _, line := range strings.Split(strings.TrimRight(string(a.Comment), "\n"), "\n") {
		key, value, _ := strings.Cut(line, ": ")
		switch key {
		case "language":
			f.Language = value
		case "references":
			if value != "omitted" {
				return nil, fmt.Errorf("%s: references: %q; the only value is omitted (leave the line out to compare them)", path, value)
			}
			f.OmitReferences = true
		default:
			desc = append(desc, line)
		}
	}
	f.Description = strings.TrimSpace(strings.Join(desc, "\n"))
	if f.Language == "" {
		return nil, fmt.Errorf("%s: no `language: <name>` line in the archive's comment", path)
	}
	for _, file := range a.Files {
		if file.Name == ExpectedSection {
			f.expected = lines(file.Data)
			continue
		}
		f.Sources = append(f.Sources, file)
	}
	if len(f.Sources) == 0 {
		return nil, fmt.Errorf("%s: no source file (a `-- path --` line before the source)", path)
	}
	return f, nil
}

// lines are the non-blank lines of data.
func lines(data []byte) []string {
	out := []string{}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// IsReference reports whether a rendered fact is a `references` edge or
// unresolved site: every render of this tree starts a fact with its row type
// and kind.
func IsReference(line string) bool {
	return strings.HasPrefix(line, "edge references ") || strings.HasPrefix(line, "unresolved references ")
}

// Check compares got, the facts of every source rendered one a line, with the
// expected section, order aside; with -update it rewrites the section instead.
func (f *Fixture) Check(t *testing.T, got []string) {
	t.Helper()
	if *update {
		f.rewrite(t, got)
		return
	}
	if f.expected == nil {
		t.Fatalf("%s: no %q section; run go test -update to write it, then review it", f.Path, ExpectedSection)
	}
	missing, unexpected := f.Diff(got)
	for _, w := range missing {
		t.Errorf("missing: %s", w)
	}
	for _, g := range unexpected {
		t.Errorf("unexpected: %s", g)
	}
	if t.Failed() {
		t.Logf("%s: the facts differ; if the change is meant, go test -update rewrites the fixture (review its diff)", f.Path)
	}
}

// facts are got as the fixture compares them: sorted, references left out
// when the fixture omits them.
func (f *Fixture) facts(got []string) []string {
	got = slices.Clone(got)
	if f.OmitReferences {
		got = slices.DeleteFunc(got, IsReference)
	}
	slices.Sort(got)
	return got
}

// Diff lists the expected facts got lacks and the facts of got not expected,
// each sorted.
func (f *Fixture) Diff(got []string) (missing, unexpected []string) {
	got = f.facts(got)
	want := slices.Sorted(slices.Values(f.expected))
	for _, w := range want {
		if _, ok := slices.BinarySearch(got, w); !ok {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if _, ok := slices.BinarySearch(want, g); !ok {
			unexpected = append(unexpected, g)
		}
	}
	return missing, unexpected
}

// WithExpected is the archive with got as its expected section (appended when
// there is none), everything else as it was.
func (f *Fixture) WithExpected(got []string) []byte {
	a := *f.archive
	a.Files = slices.Clone(a.Files)
	i := slices.IndexFunc(a.Files, func(file txtar.File) bool { return file.Name == ExpectedSection })
	if i < 0 {
		a.Files = append(a.Files, txtar.File{Name: ExpectedSection})
		i = len(a.Files) - 1
	}
	a.Files[i].Data = []byte(strings.Join(f.facts(got), "\n") + "\n")
	return txtar.Format(&a)
}

// rewrite writes the archive back with got as its expected section, when that
// changes it.
func (f *Fixture) rewrite(t *testing.T, got []string) {
	t.Helper()
	out := f.WithExpected(got)
	old, err := os.ReadFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(old, out) {
		return
	}
	if err := os.WriteFile(f.Path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: expected facts rewritten", f.Path)
}
