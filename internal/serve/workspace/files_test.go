package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The shared file operations: listing sorted with kinds, writes that replace a
// file whole and leave no temporary behind, folders refused by write and delete.
func TestFileOperations(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if n, err := Write(root, "b/data.txt", strings.NewReader("first")); err != nil || n != 5 {
		t.Fatalf("write a new file in a new folder: %d, %v", n, err)
	}
	if _, err := Write(root, "b/data.txt", strings.NewReader("second")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "b", "data.txt")); string(got) != "second" {
		t.Fatalf("content after the second write = %q", got)
	}
	if err := os.Symlink("b/data.txt", filepath.Join(dir, "a-link")); err != nil {
		t.Fatal(err)
	}
	entries, err := List(root, ".")
	want := []Entry{{Name: "a-link", Type: "link"}, {Name: "b", Type: "dir"}}
	if err != nil || !reflect.DeepEqual(entries, want) {
		t.Fatalf("List(.) = %+v, %v; want %+v", entries, err, want)
	}
	if entries, _ := List(root, "b"); len(entries) != 1 || entries[0] != (Entry{Name: "data.txt", Type: "file", Size: 6}) {
		t.Fatalf("List(b) = %+v: a temporary file was left or the size is wrong", entries)
	}
	if _, err := Write(root, "b", strings.NewReader("x")); !errors.Is(err, ErrFolder) {
		t.Errorf("write over a folder: %v, want ErrFolder", err)
	}
	if err := Delete(root, "b"); !errors.Is(err, ErrFolder) {
		t.Errorf("delete a folder: %v, want ErrFolder", err)
	}
	if err := Delete(root, "a-link"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b", "data.txt")); err != nil {
		t.Errorf("deleting a link removed its target: %v", err)
	}
}
