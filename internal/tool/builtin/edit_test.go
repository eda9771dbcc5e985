package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEdit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		initial  *string // nil: the file does not exist
		p        EditParams
		wantErr  string // substring of the error; empty means success
		wantFile string
	}{
		{name: "unique match", initial: ptr("a\nold\nc\n"), p: EditParams{OldString: "old", NewString: "new"}, wantFile: "a\nnew\nc\n"},
		{name: "not unique", initial: ptr("x = 1\nx = 1\n"), p: EditParams{OldString: "x = 1", NewString: "x = 2"},
			wantErr: "old_string matches 2 places in f.txt; add surrounding lines to make it unique, or set replace_all"},
		{name: "replace all", initial: ptr("x = 1\nx = 1\n"), p: EditParams{OldString: "x = 1", NewString: "x = 2", ReplaceAll: true}, wantFile: "x = 2\nx = 2\n"},
		{name: "not found", initial: ptr("abc\n"), p: EditParams{OldString: "zzz", NewString: "y"}, wantErr: "old_string was not found in f.txt"},
		{name: "identical", initial: ptr("abc\n"), p: EditParams{OldString: "abc", NewString: "abc"}, wantErr: "identical"},
		{name: "CRLF kept", initial: ptr("one\r\ntwo\r\nthree\r\n"), p: EditParams{OldString: "one\ntwo\n", NewString: "uno\ndos\ndos bis\n"},
			wantFile: "uno\r\ndos\r\ndos bis\r\nthree\r\n"},
		{name: "delete text", initial: ptr("keep\ndrop\n"), p: EditParams{OldString: "drop\n", NewString: ""}, wantFile: "keep\n"},
		{name: "empty old_string creates", p: EditParams{OldString: "", NewString: "hello\n"}, wantFile: "hello\n"},
		{name: "empty old_string fills an empty file", initial: ptr(""), p: EditParams{OldString: "", NewString: "hello\n"}, wantFile: "hello\n"},
		{name: "empty old_string on content", initial: ptr("x\n"), p: EditParams{OldString: "", NewString: "y"}, wantErr: "old_string is empty but f.txt already has content"},
		{name: "missing file", p: EditParams{OldString: "a", NewString: "b"}, wantErr: "f.txt does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "f.txt")
			if tt.initial != nil {
				if err := os.WriteFile(path, []byte(*tt.initial), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tt.p.Path = "f.txt"
			res := run(t, Edit(Env{WorkDir: dir}), tt.p)
			got, _ := os.ReadFile(path)
			if tt.wantErr != "" {
				wantError(t, res, tt.wantErr)
				if tt.initial != nil && string(got) != *tt.initial {
					t.Errorf("a refused edit changed the file to %q", got)
				}
				return
			}
			wantOK(t, res)
			if string(got) != tt.wantFile {
				t.Errorf("file = %q, want %q", got, tt.wantFile)
			}
			d, ok := res.Display.(FileDiff)
			if !ok || d.New != tt.wantFile || d.Path != "f.txt" || d.Unified == "" {
				t.Errorf("display = %#v", res.Display)
			}
		})
	}
}

func TestEditDisplayDiff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"m.go": "package m\n\nfunc A() int {\n\treturn 1\n}\n"})
	res := run(t, Edit(Env{WorkDir: dir}), EditParams{Path: "m.go", OldString: "return 1", NewString: "return 2"})
	wantOK(t, res)
	if res.Output != "Edited m.go: 1 replacement (+1 -1 lines)" {
		t.Errorf("output = %q", res.Output)
	}
	d := res.Display.(FileDiff)
	want := "--- a/m.go\n+++ b/m.go\n@@ -1,5 +1,5 @@\n package m\n \n func A() int {\n-\treturn 1\n+\treturn 2\n }\n"
	if d.Unified != want || d.Added != 1 || d.Removed != 1 {
		t.Errorf("unified = %q (+%d -%d)", d.Unified, d.Added, d.Removed)
	}
	if strings.Contains(res.Output, "return") {
		t.Error("the diff belongs in Display, not in what the model reads")
	}
}

func ptr[T any](v T) *T { return &v }
