package builtin

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestGlob(t *testing.T) {
	t.Parallel()
	dir := searchTree(t)
	tests := []struct {
		name    string
		p       GlobParams
		wantErr bool
		want    string
	}{
		{name: "doublestar honours ignore files", p: GlobParams{Pattern: "**/*.go"}, want: "" +
			".hidden/conf.go\na.go\na/z.go\nmain.go\nutil/helper.go\nutil/helper_test.go\nwith:colon/file.go\n"},
		{name: "single star stays at the top", p: GlobParams{Pattern: "*.go"}, want: "a.go\nmain.go\n"},
		{name: "from a path", p: GlobParams{Pattern: "*.go", Path: "util"}, want: "util/helper.go\nutil/helper_test.go\n"},
		{name: "alternatives", p: GlobParams{Pattern: "**/*.{md,txt}"}, want: "crlf.txt\ndeep/rootonly.txt\ndocs/readme.md\n"},
		{name: "nested negation re-includes", p: GlobParams{Pattern: "**/*.log"}, want: "util/keep.log\n"},
		{name: "absolute pattern", p: GlobParams{Pattern: filepath.Join(dir, "util") + "/*_test.go"}, want: "util/helper_test.go\n"},
		{name: "no match", p: GlobParams{Pattern: "**/*.rs"}, want: "No files found."},
		{name: "bad pattern", p: GlobParams{Pattern: "[a"}, wantErr: true, want: "invalid glob pattern"},
		{name: "missing path", p: GlobParams{Pattern: "*", Path: "nope"}, wantErr: true, want: "nope does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, Glob(Env{WorkDir: dir}), tt.p)
			if tt.wantErr {
				wantError(t, res, tt.want)
				return
			}
			wantOK(t, res)
			if res.Output != tt.want {
				t.Errorf("output:\n%s\nwant:\n%s", res.Output, tt.want)
			}
		})
	}
}

func TestGlobCaps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{}
	for i := range maxGlobResults + 5 {
		files[fmt.Sprintf("f%04d.txt", i)] = ""
	}
	writeFiles(t, dir, files)
	res := run(t, Glob(Env{WorkDir: dir}), GlobParams{Pattern: "*.txt"})
	if !res.Truncated || !strings.HasSuffix(res.Output, "[5 more files not shown; use a narrower pattern or path]\n") {
		t.Errorf("Truncated=%v, output ends %q", res.Truncated, res.Output[max(0, len(res.Output)-80):])
	}
	if strings.Count(res.Output, ".txt\n") != maxGlobResults {
		t.Errorf("listed %d files, want %d", strings.Count(res.Output, ".txt\n"), maxGlobResults)
	}
	res = run(t, Glob(Env{WorkDir: dir, MaxOutputBytes: 200}), GlobParams{Pattern: "f00*.txt"})
	if !res.Truncated || !strings.Contains(res.Output, "bytes truncated") {
		t.Errorf("byte cap not applied: %q", res.Output)
	}
}
