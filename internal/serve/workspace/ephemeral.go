package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tempPrefix marks the folders Ephemeral makes, so Sweep removes only those.
const tempPrefix = "albert-code-run-"

// Temp is a workspace for one run, removed after it.
type Temp struct {
	Dir string
}

// Ephemeral makes a private (0700) folder under parent, or under the system's temp
// folder when parent is empty.
func Ephemeral(parent string) (*Temp, error) {
	dir, err := os.MkdirTemp(parent, tempPrefix)
	if err != nil {
		return nil, fmt.Errorf("ephemeral workspace: %w", err)
	}
	return &Temp{Dir: dir}, nil
}

// Remove deletes the folder and everything the run left in it, read-only folders
// included (a Go module cache, a checked-out .git).
func (t *Temp) Remove() error {
	err := os.RemoveAll(t.Dir)
	if err == nil || !errors.Is(err, fs.ErrPermission) {
		return err
	}
	_ = filepath.WalkDir(t.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(t.Dir)
}

// Sweep removes ephemeral folders under parent older than age: the ones a crashed
// server could not remove. It returns how many it removed.
func Sweep(parent string, age time.Duration) (int, error) {
	if parent == "" {
		parent = os.TempDir()
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return 0, fmt.Errorf("sweep ephemeral workspaces in %s: %w", parent, err)
	}
	n := 0
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < age {
			continue
		}
		if err := (&Temp{Dir: filepath.Join(parent, e.Name())}).Remove(); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}
