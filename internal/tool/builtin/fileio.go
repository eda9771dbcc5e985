package builtin

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

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

// readExisting returns the text and mode of the file at t.real, or exists=false when
// there is none. A link's target is read and later replaced, never the link itself.
func readExisting(t target) (text string, mode fs.FileMode, exists bool, err error) {
	f, err := openReal(t)
	if errors.Is(err, fs.ErrNotExist) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", 0, true, err
	}
	if info.IsDir() {
		return "", 0, true, fmt.Errorf("%s is a directory", t.real)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return "", 0, true, err
	}
	return string(b), info.Mode().Perm(), true, nil
}

// writeAtomic replaces t.real's content with data so that readers see the old file
// or the new one, never half of it: it writes a temporary file in the same directory
// (same filesystem), syncs it, and renames it over the file. Both happen in the
// directory opened by openDir, so a link swapped in meanwhile cannot move the write
// elsewhere. It creates missing parent directories.
func writeAtomic(t target, data []byte, mode fs.FileMode) error {
	dir, err := openDir(t, filepath.Dir(t.real), true)
	if err != nil {
		return err
	}
	defer dir.Close()
	base := filepath.Base(t.real)
	tmp := "." + base + ".tmp-" + strconv.FormatUint(rand.Uint64(), 36)
	f, err := dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			_ = f.Close()
			_ = dir.Remove(tmp)
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
	if err := dir.Rename(tmp, base); err != nil {
		return err
	}
	ok = true
	return nil
}
