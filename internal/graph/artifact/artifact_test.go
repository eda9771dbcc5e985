package artifact

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// testTimeout bounds an index run: a cold build cache makes the first Go load
// compile the standard library's export data.
const testTimeout = 180 * time.Second

func indexOptions() index.Options {
	return index.Options{Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract}
}

// fixtureRepo copies the Go fixture module with one Python file beside it.
func fixtureRepo(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("..", "golang", "testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dst, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dst, "tools", "util.py"), "def helper():\n    return 1\n")
	return dst
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func dbPathIn(root string) string { return filepath.Join(root, ".albert-code", "graph", "graph.db") }

// indexRepo indexes root into its own index folder.
func indexRepo(t *testing.T, ctx context.Context, root string) *index.Report {
	t.Helper()
	st, err := store.Open(dbPathIn(root))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rep, err := index.Run(ctx, root, st, indexOptions())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func callers(t *testing.T, ctx context.Context, dbPath, symbol string) []string {
	t.Helper()
	st, err := store.OpenReadOnly(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := query.Ask(ctx, st, "callers", symbol)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range a.Items {
		out = append(out, it.QName)
	}
	return out
}

// An exported index imported into another clone answers as the original, holds
// nothing of the first machine, and the next run there parses only what changed.
func TestExportImportRoundTrip(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	first := fixtureRepo(t)
	indexRepo(t, ctx, first)
	out := filepath.Join(first, filepath.FromSlash(RelPath))
	m, err := Export(ctx, dbPathIn(first), out, "test-1")
	if err != nil {
		t.Fatal(err)
	}
	if m.Format != Format || m.SchemaVersion != store.SchemaVersion || m.ExtractorVersion != index.ExtractorVersion ||
		m.ToolVersion != "test-1" || m.DBBytes == 0 || len(m.DBSHA256) != 64 || m.CreatedAt == "" {
		t.Fatalf("meta = %+v", m)
	}
	paths := make([]string, 0, len(m.Files))
	for _, f := range m.Files {
		paths = append(paths, f.Path)
		if len(f.Hash) != 64 || f.Size == 0 {
			t.Errorf("stamp %+v", f)
		}
	}
	if !slices.Contains(paths, "shapes/registry.go") || !slices.Contains(paths, "tools/util.py") {
		t.Fatalf("files = %v", paths)
	}
	if info, err := os.Stat(out); err != nil || info.Size() >= m.DBBytes || info.Mode().Perm() != 0o644 {
		t.Fatalf("artifact %v (%v): want smaller than the index's %d bytes, and readable by all (it is committed)", info, err, m.DBBytes)
	}

	second := fixtureRepo(t)
	got, err := Import(ctx, out, dbPathIn(second), second)
	if err != nil {
		t.Fatal(err)
	}
	if got.DBSHA256 != m.DBSHA256 {
		t.Fatalf("imported meta %+v", got)
	}
	want := callers(t, ctx, dbPathIn(first), "example.com/fixture/shapes.Register")
	if have := callers(t, ctx, dbPathIn(second), "example.com/fixture/shapes.Register"); len(want) == 0 || !slices.Equal(have, want) {
		t.Fatalf("callers after import = %v, want %v", have, want)
	}
	st, err := store.OpenReadOnly(dbPathIn(second))
	if err != nil {
		t.Fatal(err)
	}
	root, _, err := st.Meta(ctx, store.MetaRoot)
	st.Close()
	if err != nil || root != second {
		t.Fatalf("root = %q (%v), want %q", root, err, second)
	}

	writeFile(t, filepath.Join(second, "tools", "util.py"), "def helper():\n    return 2\n")
	rep := indexRepo(t, ctx, second)
	if rep.Extracted != 1 || rep.Unchanged != rep.Files-1 {
		t.Fatalf("after import, one edit: %d extracted, %d unchanged of %d files", rep.Extracted, rep.Unchanged, rep.Files)
	}
}

// writeArtifact packs an index with meta changed by edit, as another version
// of albert-code would have.
func writeArtifact(t *testing.T, ctx context.Context, dbPath, out string, edit func(*Meta)) {
	t.Helper()
	snap, err := snapshot(ctx, dbPath, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m, err := describe(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	edit(m)
	if err := pack(snap, out, m); err != nil {
		t.Fatal(err)
	}
}

// An incompatible or damaged artifact is an error naming the file, and the
// index it would have replaced is left as it was.
func TestImportRefusesBadArtifacts(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	repo := fixtureRepo(t)
	indexRepo(t, ctx, repo)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.zst")
	if _, err := Export(ctx, dbPathIn(repo), good, "test"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		make func(path string)
		want error
		says string
	}{
		"schema": {func(p string) {
			writeArtifact(t, ctx, dbPathIn(repo), p, func(m *Meta) { m.SchemaVersion++ })
		}, ErrIncompatible, "index schema"},
		"extractor": {func(p string) {
			writeArtifact(t, ctx, dbPathIn(repo), p, func(m *Meta) { m.ExtractorVersion = "0" })
		}, ErrIncompatible, "extractor version"},
		"hash": {func(p string) {
			writeArtifact(t, ctx, dbPathIn(repo), p, func(m *Meta) { m.DBSHA256 = strings.Repeat("0", 64) })
		}, ErrCorrupt, "SHA-256"},
		"truncated":  {func(p string) { writeFile(t, p, string(b[:len(b)/2])) }, ErrCorrupt, "cannot be read"},
		"not zstd":   {func(p string) { writeFile(t, p, "graph.db\n") }, ErrCorrupt, "cannot be read"},
		"empty file": {func(p string) { writeFile(t, p, "") }, ErrCorrupt, "cannot be read"},
	}
	for name, tc := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".zst")
		tc.make(path)
		target := filepath.Join(t.TempDir(), "graph.db")
		writeFile(t, target, "the index that was there")
		_, err := Import(ctx, path, target, repo)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want %v naming %s and saying %q", name, err, tc.want, path, tc.says)
		}
		if kept, _ := os.ReadFile(target); string(kept) != "the index that was there" {
			t.Errorf("%s: the existing index was replaced", name)
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(target), ".graph-import-*")); len(left) > 0 {
			t.Errorf("%s: left %v behind", name, left)
		}
	}
}

// Bootstrap imports the committed artifact only when there is no index yet.
func TestBootstrap(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	first := fixtureRepo(t)
	indexRepo(t, ctx, first)
	clone := fixtureRepo(t)
	if m, err := Bootstrap(ctx, clone, dbPathIn(clone)); m != nil || err != nil {
		t.Fatalf("without an artifact: %v, %v", m, err)
	}
	if _, err := Export(ctx, dbPathIn(first), filepath.Join(clone, filepath.FromSlash(RelPath)), "test"); err != nil {
		t.Fatal(err)
	}
	m, err := Bootstrap(ctx, clone, dbPathIn(clone))
	if err != nil || m == nil {
		t.Fatalf("with an artifact and no index: %v, %v", m, err)
	}
	if m, err := Bootstrap(ctx, clone, dbPathIn(clone)); m != nil || err != nil {
		t.Fatalf("with an index: %v, %v", m, err)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@t", "-c", "user.name=t", "-c", "merge.ours.driver=true"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Two branches that each export their own artifact merge without a conflict:
// the current branch's artifact is kept.
func TestArtifactMergesInGit(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	repo := fixtureRepo(t)
	indexRepo(t, ctx, repo)
	// The index folder ignores itself, as agenttool.DefaultIndexPath makes it.
	writeFile(t, filepath.Join(repo, ".albert-code", "graph", ".gitignore"), "*\n")
	added, err := EnsureGitAttributes(repo)
	if err != nil || !added {
		t.Fatalf("EnsureGitAttributes = %v, %v", added, err)
	}
	if again, err := EnsureGitAttributes(repo); err != nil || again {
		t.Fatalf("EnsureGitAttributes again = %v, %v: the line is there", again, err)
	}
	art := filepath.Join(repo, filepath.FromSlash(RelPath))
	export := func() {
		indexRepo(t, ctx, repo)
		if _, err := Export(ctx, dbPathIn(repo), art, "test"); err != nil {
			t.Fatal(err)
		}
	}
	export()
	git(t, repo, "init", "-q", "-b", "main")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-qm", "init")
	git(t, repo, "checkout", "-qb", "other")
	writeFile(t, filepath.Join(repo, "tools", "util.py"), "def helper():\n    return 'other'\n")
	export()
	git(t, repo, "commit", "-qam", "other")
	git(t, repo, "checkout", "-q", "main")
	writeFile(t, filepath.Join(repo, "tools", "more.py"), "def more():\n    return 3\n")
	export()
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-qm", "main")
	ours, err := os.ReadFile(art)
	if err != nil {
		t.Fatal(err)
	}
	git(t, repo, "merge", "-q", "--no-edit", "other")
	if merged, _ := os.ReadFile(art); string(merged) != string(ours) {
		t.Fatal("the merge did not keep the current branch's artifact")
	}
	if status := git(t, repo, "status", "--porcelain"); strings.Contains(status, "graph.zst") {
		t.Fatalf("the artifact is left conflicted: %s", status)
	}
}
