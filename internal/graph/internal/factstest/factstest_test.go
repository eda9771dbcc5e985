package factstest

import (
	"slices"
	"strings"
	"testing"
)

const sample = `A sample: what the harness reads.

language: python
references: omitted
-- pkg/a.py --
def f():
    g()
-- pkg/b.py --
def g(): pass
-- expected --
node function pkg/a.py::f 1:5-2

edge calls pkg/a.py::f -> pkg/b.py::g 0.5 name @2
`

func TestParseReadsHeaderSourcesAndExpected(t *testing.T) {
	t.Parallel()
	f, err := Parse("sample.txtar", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if f.Language != "python" || !f.OmitReferences || f.Description != "A sample: what the harness reads." {
		t.Errorf("header = %q, %v, %q", f.Language, f.OmitReferences, f.Description)
	}
	if len(f.Sources) != 2 || f.Sources[0].Name != "pkg/a.py" || string(f.Sources[1].Data) != "def g(): pass\n" {
		t.Errorf("sources = %+v", f.Sources)
	}
	want := []string{"node function pkg/a.py::f 1:5-2", "edge calls pkg/a.py::f -> pkg/b.py::g 0.5 name @2"}
	if !slices.Equal(f.expected, want) {
		t.Errorf("expected = %q, want %q (blank lines skipped)", f.expected, want)
	}
}

func TestParseRefusesMalformedFixtures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, data, want string }{
		{"no language", "about\n-- a.py --\nx\n", "no `language: <name>` line"},
		{"bad references", "language: python\nreferences: yes\n-- a.py --\nx\n", `references: "yes"`},
		{"no source", "language: python\n-- expected --\nnode x\n", "no source file"},
	} {
		_, err := Parse("bad.txtar", []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "bad.txtar") {
			t.Errorf("%s: err = %v, want one naming bad.txtar and %q", tc.name, err, tc.want)
		}
	}
}

func TestDiffIgnoresOrderAndOmittedReferences(t *testing.T) {
	t.Parallel()
	f, err := Parse("sample.txtar", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{
		"edge calls pkg/a.py::f -> pkg/b.py::g 0.5 name @2",
		"edge references pkg/a.py::f -> pkg/b.py::x 0.5 name @2",
		"node function pkg/a.py::f 1:5-2",
	}
	if missing, unexpected := f.Diff(got); missing != nil || unexpected != nil {
		t.Errorf("same facts: missing %q, unexpected %q", missing, unexpected)
	}
	got = []string{"node function pkg/a.py::f 1:5-3", "edge calls pkg/a.py::f -> pkg/b.py::g 0.5 name @2"}
	missing, unexpected := f.Diff(got)
	if !slices.Equal(missing, []string{"node function pkg/a.py::f 1:5-2"}) || !slices.Equal(unexpected, []string{"node function pkg/a.py::f 1:5-3"}) {
		t.Errorf("a moved end line: missing %q, unexpected %q", missing, unexpected)
	}
	f.OmitReferences = false
	if _, unexpected := f.Diff([]string{"unresolved references pkg/a.py::f -> y @2:4"}); len(unexpected) != 1 {
		t.Errorf("references compared: unexpected %q", unexpected)
	}
}

func TestWithExpectedRewritesOnlyTheExpectedSection(t *testing.T) {
	t.Parallel()
	f, err := Parse("sample.txtar", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{"node b", "edge references a -> b 1 name @1", "node a"}
	out := string(f.WithExpected(got))
	head, _, _ := strings.Cut(sample, "-- expected --")
	if want := head + "-- expected --\nnode a\nnode b\n"; out != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", out, want)
	}
	// A fixture written without its expected section gets one.
	f, err = Parse("new.txtar", []byte("language: go\n-- a.go --\npackage a\n"))
	if err != nil {
		t.Fatal(err)
	}
	if out, want := string(f.WithExpected([]string{"node file a.go 1:0-2"})), "language: go\n-- a.go --\npackage a\n-- expected --\nnode file a.go 1:0-2\n"; out != want {
		t.Errorf("appended:\n%s\nwant:\n%s", out, want)
	}
}

func TestIsReference(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]bool{
		"edge references a -> b 1 name @1":      true,
		"unresolved references a -> b @1:2":     true,
		"edge calls a -> b 1 name @1":           false,
		"node function a::references 1:0-1":     false,
		"unresolved calls a -> references @1:2": false,
	} {
		if IsReference(line) != want {
			t.Errorf("IsReference(%q) = %v", line, !want)
		}
	}
}
