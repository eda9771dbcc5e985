package fswalk

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		path := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func collect(t *testing.T, root string, opts Options) []string {
	t.Helper()
	var got []string
	err := Walk(context.Background(), root, opts, func(_, rel string, _ fs.DirEntry) error {
		got = append(got, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestWalkHonoursIgnoreFilesAndDepth(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{
		".gitignore":          "*.log\nbuild/\n",
		"a.go":                "",
		"debug.log":           "",
		"build/out.go":        "",
		"sub/.gitignore":      "!keep.log\n",
		"sub/keep.log":        "",
		"sub/drop.log.txt":    "",
		"d1/d2/d3/deep.go":    "",
		".git/config":         "",
		".hidden/visible.txt": "",
	})
	got := collect(t, root, Options{})
	want := []string{".gitignore", ".hidden/visible.txt", "a.go", "d1/d2/d3/deep.go", "sub/.gitignore", "sub/drop.log.txt", "sub/keep.log"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("walk = %v\nwant   %v", got, want)
	}

	var skipped []string
	got = collect(t, root, Options{MaxDepth: 2, OnSkip: func(rel string, err error) {
		if errors.Is(err, ErrTooDeep) {
			skipped = append(skipped, rel)
		}
	}})
	if reflect.DeepEqual(got, want) || !reflect.DeepEqual(skipped, []string{"d1/d2/d3"}) {
		t.Fatalf("with MaxDepth 2: walk = %v, skipped = %v", got, skipped)
	}
}

func TestWalkDoesNotFollowSymlinkLoops(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{"a/file.go": ""})
	if err := os.Symlink(root, filepath.Join(root, "a", "loop")); err != nil {
		t.Fatal(err)
	}
	if got := collect(t, root, Options{}); !reflect.DeepEqual(got, []string{"a/file.go"}) {
		t.Fatalf("walk = %v", got)
	}
}

func TestWalkStopsOnCancel(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{"a.go": "", "b.go": ""})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Walk(ctx, root, Options{}, func(string, string, fs.DirEntry) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func TestWalkReportsEveryKeptDirectoryToOnDir(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{
		".gitignore":     "build/\n",
		"a/b/c.go":       "",
		"build/out.go":   "",
		".git/config":    "",
		"empty/.keep.go": "",
	})
	if err := os.Mkdir(filepath.Join(root, "a", "void"), 0o755); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	collect(t, root, Options{OnDir: func(_, rel string) { dirs = append(dirs, rel) }})
	want := []string{"a", "a/b", "a/void", "empty"}
	if !reflect.DeepEqual(dirs, want) {
		t.Fatalf("OnDir saw %v, want %v (ignored and .git directories left out, empty ones kept)", dirs, want)
	}
}

// TestLinksAndLoopsAreReportedNotFollowed: a link loop, a dangling link and a
// link to a file are each reported with their reason and none is followed, so
// the walk ends; an ignored link is not reported.
func TestLinksAndLoopsAreReportedNotFollowed(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{"a.go": "package a\n", ".gitignore": "ignored\n"})
	for link, target := range map[string]string{"loop1": "loop2", "loop2": "loop1", "dangling": "nowhere", "alias.go": "a.go", "ignored": "a.go", "up": "."} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]error{}
	files := collect(t, root, Options{OnSkip: func(rel string, reason error) { got[rel] = reason }})
	if !reflect.DeepEqual(files, []string{".gitignore", "a.go"}) {
		t.Errorf("files = %q, want only the regular files", files)
	}
	for rel, want := range map[string]error{"loop1": ErrSymlinkLoop, "loop2": ErrSymlinkLoop, "dangling": ErrSymlink, "alias.go": ErrSymlink, "up": ErrSymlink} {
		if !errors.Is(got[rel], want) {
			t.Errorf("%s: reason %v, want %v", rel, got[rel], want)
		}
	}
	if _, ok := got["ignored"]; ok || len(got) != 5 {
		t.Errorf("reported %v; an ignored link is not reported", got)
	}
}
