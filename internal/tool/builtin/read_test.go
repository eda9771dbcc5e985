package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var ten strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&ten, "line %d\n", i)
	}
	writeFiles(t, dir, map[string]string{
		"ten.txt":       ten.String(),
		"crlf.txt":      "a\r\nb\r\n",
		"nofinal.txt":   "x\ny",
		"empty.txt":     "",
		"bin.dat":       "PK\x03\x04\x00\x00binary",
		"latin1.txt":    "caf\xe9 cr\xe8me\n",
		"long.txt":      strings.Repeat("é", 3000) + "\nshort\n",
		"sub/config.go": "package sub\n",
	})
	tests := []struct {
		name    string
		p       ReadParams
		env     Env
		wantErr bool
		want    string // whole output when !wantErr and not prefixed by "~", else a substring
	}{
		{name: "numbered like cat -n", p: ReadParams{Path: "nofinal.txt"}, want: "     1\tx\n     2\ty\n"},
		{name: "CRLF shown without CR", p: ReadParams{Path: "crlf.txt"}, want: "     1\ta\n     2\tb\n"},
		{name: "offset and limit", p: ReadParams{Path: "ten.txt", Offset: 3, Limit: 2},
			want: "     3\tline 3\n     4\tline 4\n\n[showing lines 3-4 of 10; to read on, call read with offset=5]\n"},
		{name: "offset to the end", p: ReadParams{Path: "ten.txt", Offset: 9}, want: "     9\tline 9\n    10\tline 10\n"},
		{name: "line budget from env", p: ReadParams{Path: "ten.txt"}, env: Env{ReadLines: 4}, want: "~call read with offset=5]"},
		{name: "byte budget", p: ReadParams{Path: "ten.txt"}, env: Env{ReadBytes: 30}, want: "~[showing lines 1-2 of 10; to read on, call read with offset=3]"},
		{name: "long line cut on a rune boundary", p: ReadParams{Path: "long.txt"}, want: "~" + strings.Repeat("é", 1000) + " [... line cut ...]\n     2\tshort\n"},
		{name: "empty file", p: ReadParams{Path: "empty.txt"}, want: "(empty.txt is empty)"},
		{name: "offset past the end", p: ReadParams{Path: "ten.txt", Offset: 11}, wantErr: true, want: "offset 11 is past the end of ten.txt, which has 10 lines"},
		{name: "binary refused", p: ReadParams{Path: "bin.dat"}, wantErr: true, want: "bin.dat is a binary file"},
		{name: "non-UTF-8 refused", p: ReadParams{Path: "latin1.txt"}, wantErr: true, want: "binary file"},
		{name: "directory refused", p: ReadParams{Path: "sub"}, wantErr: true, want: "sub is a directory"},
		{name: "missing file suggests", p: ReadParams{Path: "sub/Config.go"}, wantErr: true, want: "sub/Config.go does not exist; did you mean: " + filepath.Join(dir, "sub/config.go")},
		{name: "missing directory", p: ReadParams{Path: "nope/x.go"}, wantErr: true, want: "its directory does not exist either"},
		{name: "absolute path", p: ReadParams{Path: filepath.Join(dir, "nofinal.txt")}, want: "     1\tx\n     2\ty\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := tt.env
			env.WorkDir = dir
			res := run(t, Read(env), tt.p)
			if res.IsError != tt.wantErr {
				t.Fatalf("IsError = %v: %s", res.IsError, res.Output)
			}
			if sub, ok := strings.CutPrefix(tt.want, "~"); ok || tt.wantErr {
				if !strings.Contains(res.Output, sub) {
					t.Errorf("output %q does not contain %q", res.Output, sub)
				}
				return
			}
			if res.Output != tt.want {
				t.Errorf("output = %q, want %q", res.Output, tt.want)
			}
		})
	}
}
