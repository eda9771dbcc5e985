package builtin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/textdiff"
)

// FileDiff is the Display of write and edit: what a face needs to show a change.
type FileDiff struct {
	// Path is the file as the model named it, relative to the workspace when inside.
	Path string
	// Old and New are the whole texts before and after; Old is empty for a new file.
	Old, New string
	// Created says the file did not exist before.
	Created bool
	// Unified is the change in unified diff format.
	Unified        string
	Added, Removed int
}

func newFileDiff(path, old, new string, created bool) FileDiff {
	from := "a/" + path
	if created {
		from = "/dev/null"
	}
	unified, added, removed := textdiff.Unified(from, "b/"+path, old, new)
	return FileDiff{Path: path, Old: old, New: new, Created: created, Unified: unified, Added: added, Removed: removed}
}

// readExisting returns a file's text and mode, or exists=false when there is none.
// It resolves symlinks so writes go to the link's target instead of replacing the link.
func readExisting(path string) (target, text string, mode fs.FileMode, exists bool, err error) {
	target = path
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t
	}
	info, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return target, "", 0, false, nil
	}
	if err != nil {
		return target, "", 0, false, err
	}
	if info.IsDir() {
		return target, "", 0, true, fmt.Errorf("%s is a directory", path)
	}
	b, err := os.ReadFile(target)
	if err != nil {
		return target, "", 0, true, err
	}
	return target, string(b), info.Mode().Perm(), true, nil
}

// writeAtomic replaces path's content with data so that readers see the old file or
// the new one, never half of it: it writes a temporary file in the same directory
// (same filesystem), syncs it, and renames it over path. It creates missing parent
// directories.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	return nil
}
