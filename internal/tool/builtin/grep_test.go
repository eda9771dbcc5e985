package builtin

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// searchTree is a small workspace exercising every rule the walkers share.
func searchTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".gitignore":          "*.log\nbuild/\n/rootonly.txt\n",
		"main.go":             "package main\n\nfunc main() { needle() }\n",
		"util/helper.go":      "package util\n// Needle in a comment\nfunc needle() {}\n",
		"util/helper_test.go": "package util\nfunc TestNeedle() { needle() }\n",
		"util/.gitignore":     "generated.go\n!keep.log\n",
		"util/generated.go":   "needle generated\n",
		"util/keep.log":       "needle re-included by a nested negation\n",
		"debug.log":           "needle in a log\n",
		"build/out.go":        "needle in build\n",
		"deep/build/x.go":     "needle in nested build\n",
		"rootonly.txt":        "needle at the root\n",
		"deep/rootonly.txt":   "needle not at the root\n",
		".hidden/conf.go":     "needle hidden\n",
		".git/config":         "needle in git\n",
		"bin.dat":             "needle\x00binary\n",
		"crlf.txt":            "needle\r\nsecond needle\r\n",
		"docs/readme.md":      "NEEDLE shouting\n",
		"a.go":                "needle a\n",
		"a/z.go":              "needle a/z\n",
		"with:colon/file.go":  "needle colon\n",
	})
	return dir
}

func grepBoth(t *testing.T, env Env, p GrepParams) (rg, builtin string) {
	t.Helper()
	if _, err := exec.LookPath("rg"); err != nil {
		t.Fatal("ripgrep (rg) is not installed: bash .ci/run installs it; the parity of the two grep engines cannot be checked without it")
	}
	rgRes := run(t, Grep(env), p)
	env.BuiltinGrep = true
	goRes := run(t, Grep(env), p)
	if rgRes.IsError || goRes.IsError {
		t.Fatalf("errors: rg %q, builtin %q", rgRes.Output, goRes.Output)
	}
	return rgRes.Output, goRes.Output
}

func TestGrepEnginesAgree(t *testing.T) {
	t.Parallel()
	dir := searchTree(t)
	tests := []struct {
		name string
		p    GrepParams
		want string
	}{
		{name: "gitignore, nested gitignore, hidden, .git and binary", p: GrepParams{Pattern: "needle"}, want: "" +
			".hidden/conf.go:1:needle hidden\n" +
			"a/z.go:1:needle a/z\n" +
			"a.go:1:needle a\n" +
			"crlf.txt:1:needle\n" +
			"crlf.txt:2:second needle\n" +
			"deep/rootonly.txt:1:needle not at the root\n" +
			"main.go:3:func main() { needle() }\n" +
			"util/helper.go:3:func needle() {}\n" +
			"util/helper_test.go:2:func TestNeedle() { needle() }\n" +
			"util/keep.log:1:needle re-included by a nested negation\n" +
			"with:colon/file.go:1:needle colon\n"},
		{name: "ignore case", p: GrepParams{Pattern: "needle", IgnoreCase: true, Path: "util"}, want: "" +
			"util/helper.go:2:// Needle in a comment\n" +
			"util/helper.go:3:func needle() {}\n" +
			"util/helper_test.go:2:func TestNeedle() { needle() }\n" +
			"util/keep.log:1:needle re-included by a nested negation\n"},
		{name: "glob by name", p: GrepParams{Pattern: "needle", Glob: "*_test.go"}, want: "util/helper_test.go:2:func TestNeedle() { needle() }\n"},
		{name: "glob overrides .gitignore for files, not directories", p: GrepParams{Pattern: "needle (in|generated)", Glob: "*.go"},
			want: "util/generated.go:1:needle generated\n"},
		{name: "glob by path", p: GrepParams{Pattern: "needle", Glob: "util/*.go"}, want: "" +
			"util/generated.go:1:needle generated\n" +
			"util/helper.go:3:func needle() {}\n" +
			"util/helper_test.go:2:func TestNeedle() { needle() }\n"},
		{name: "negated glob", p: GrepParams{Pattern: "needle", Glob: "!*.go"}, want: "" +
			"crlf.txt:1:needle\n" +
			"crlf.txt:2:second needle\n" +
			"deep/rootonly.txt:1:needle not at the root\n" +
			"util/keep.log:1:needle re-included by a nested negation\n"},
		{name: "single ignored file named explicitly", p: GrepParams{Pattern: "needle", Path: "debug.log"}, want: "debug.log:1:needle in a log\n"},
		{name: "regex", p: GrepParams{Pattern: `func \w+\(\)`}, want: "" +
			"main.go:3:func main() { needle() }\n" +
			"util/helper.go:3:func needle() {}\n" +
			"util/helper_test.go:2:func TestNeedle() { needle() }\n"},
		{name: "max matches", p: GrepParams{Pattern: "needle", MaxMatches: 2}, want: "" +
			".hidden/conf.go:1:needle hidden\n" +
			"a/z.go:1:needle a/z\n" +
			"\n[stopped at 2 matching lines; narrow the pattern, path or glob, or raise max_matches]\n"},
		{name: "no match", p: GrepParams{Pattern: "haystack"}, want: "No matches found."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rg, builtin := grepBoth(t, Env{WorkDir: dir}, tt.p)
			if rg != builtin {
				t.Errorf("engines disagree:\nrg:\n%s\nbuiltin:\n%s", rg, builtin)
			}
			if builtin != tt.want {
				t.Errorf("output:\n%s\nwant:\n%s", builtin, tt.want)
			}
		})
	}
}

func TestGrepErrors(t *testing.T) {
	t.Parallel()
	dir := searchTree(t)
	for _, builtin := range []bool{false, true} {
		env := Env{WorkDir: dir, BuiltinGrep: builtin}
		wantError(t, run(t, Grep(env), GrepParams{Pattern: "a("}), "invalid regular expression")
		wantError(t, run(t, Grep(env), GrepParams{Pattern: "a", Path: "nowhere"}), "nowhere does not exist")
		wantError(t, run(t, Grep(env), GrepParams{Pattern: "a", Glob: "[x"}), "invalid glob")
	}
}

func TestGrepOutputCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"big.txt": strings.Repeat("match this line\n", 1000)})
	for _, builtin := range []bool{false, true} {
		res := run(t, Grep(Env{WorkDir: dir, BuiltinGrep: builtin, MaxOutputBytes: 500}), GrepParams{Pattern: "match", MaxMatches: 1000})
		if !res.Truncated || len(res.Output) > 600 || !strings.Contains(res.Output, "bytes truncated") {
			t.Errorf("builtin=%v: Truncated=%v len=%d", builtin, res.Truncated, len(res.Output))
		}
	}
}

func TestGrepOutsideWorkDirShowsAbsolutePaths(t *testing.T) {
	t.Parallel()
	dir := searchTree(t)
	other := t.TempDir()
	rg, builtin := grepBoth(t, Env{WorkDir: other}, GrepParams{Pattern: "needle a/z", Path: dir})
	want := filepath.Join(dir, "a/z.go") + ":1:needle a/z\n"
	if rg != builtin || builtin != want {
		t.Errorf("rg %q, builtin %q, want %q", rg, builtin, want)
	}
}

// TestGrepHonoursParentIgnoreFiles searches a subdirectory: the rules of the
// .gitignore above it still apply, anchored where that file is.
func TestGrepHonoursParentIgnoreFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".gitignore":         "*.tmp\n/sub/top.txt\n",
		"sub/a.tmp":          "needle\n",
		"sub/top.txt":        "needle\n",
		"sub/deeper/top.txt": "needle\n",
	})
	for _, env := range []Env{{WorkDir: dir}, {WorkDir: filepath.Join(dir, "sub")}} {
		rg, builtin := grepBoth(t, env, GrepParams{Pattern: "needle", Path: filepath.Join(dir, "sub")})
		want := env.display(filepath.Join(dir, "sub/deeper/top.txt")) + ":1:needle\n"
		if rg != builtin || builtin != want {
			t.Errorf("WorkDir %s: rg %q, builtin %q, want %q", env.WorkDir, rg, builtin, want)
		}
	}
}
