package truth

import (
	"bytes"
	"strings"
	"testing"
)

func valid() *File {
	return &File{
		Language:    "go",
		Root:        "/corpus",
		Files:       []string{"a.go", "b.go"},
		Definitions: []Definition{{Key: "a.go:3", Name: "F"}, {Key: "b.go:10", Name: "G"}, {Key: "b.go:2", Name: "H"}},
		Calls:       []Call{{From: "b.go:10", To: "a.go:3"}, {From: "a.go:3", To: "b.go:2"}, {From: "b.go:10", To: "a.go:3"}},
		References:  []Reference{{From: "b.go", To: "a.go:3"}},
	}
}

func TestCheckNamesTheBrokenPart(t *testing.T) {
	t.Parallel()
	if err := valid().Check(); err != nil {
		t.Fatalf("a valid file: %v", err)
	}
	for _, c := range []struct {
		name   string
		mutate func(*File)
		want   string
	}{
		{"not a ground truth at all", func(f *File) { *f = File{} }, "language"},
		{"definition outside the universe", func(f *File) { f.Definitions[0].Key = "c.go:1" }, "definition c.go:1"},
		{"key without a line", func(f *File) { f.Definitions[0].Key = "a.go" }, "definition a.go"},
		{"call to a non-definition", func(f *File) { f.Calls[0].To = "a.go:4" }, "call to a.go:4"},
		{"reference from nowhere", func(f *File) { f.References[0].From = "z.go" }, "reference from z.go"},
		{"implementation of a non-definition", func(f *File) {
			f.Implementations = []Implementation{{Type: "a.go:3", Interface: "b.go:99"}}
		}, "implemented interface b.go:99"},
	} {
		f := valid()
		c.mutate(f)
		if err := f.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check() = %v, want an error naming %q", c.name, err, c.want)
		}
	}
}

func TestSortOrdersByFileThenLineAndDropsDuplicates(t *testing.T) {
	t.Parallel()
	f := valid()
	f.Sort()
	var keys []string
	for _, d := range f.Definitions {
		keys = append(keys, d.Key)
	}
	if got := strings.Join(keys, " "); got != "a.go:3 b.go:2 b.go:10" {
		t.Errorf("definitions in order %s, want lines as numbers (b.go:2 before b.go:10)", got)
	}
	if len(f.Calls) != 2 || f.Calls[0].From != "a.go:3" {
		t.Errorf("calls = %v, want the duplicate dropped and a.go:3 first", f.Calls)
	}
	var one, two bytes.Buffer
	if err := f.Write(&one); err != nil {
		t.Fatal(err)
	}
	g := valid()
	g.Calls[0], g.Calls[1] = g.Calls[1], g.Calls[0]
	g.Sort()
	if err := g.Write(&two); err != nil {
		t.Fatal(err)
	}
	if one.String() != two.String() {
		t.Error("the same facts in another order wrote different bytes")
	}
}

func TestSplitKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]struct {
		file string
		line int
		ok   bool
	}{
		"a/b.go:12": {"a/b.go", 12, true},
		"a/b.go":    {"a/b.go", 0, false},
		"c:/x.go:7": {"c:/x.go", 7, true},
	} {
		file, line, ok := SplitKey(in)
		if file != want.file || line != want.line || ok != want.ok {
			t.Errorf("SplitKey(%q) = %q %d %v, want %q %d %v", in, file, line, ok, want.file, want.line, want.ok)
		}
	}
}
