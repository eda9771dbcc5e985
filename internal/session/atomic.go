package session

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// File modes: sessions hold prompts, tool output and sometimes secrets pasted by the
// user, so only the owner may read them.
const (
	dirMode  os.FileMode = 0o700
	fileMode os.FileMode = 0o600
)

// durability says how much of a machine crash a write must survive. Every level
// survives a crash of the process: the rename is atomic.
type durability int

const (
	// durable fsyncs the file and its folder: after a machine crash the new version
	// is there.
	durable durability = iota
	// deferred fsyncs nothing: the caller syncs later (Store.Create hands it to the
	// Log's background syncer) or can do without (a meta.json rewrite: after a
	// machine crash the old version, or an empty file that readMeta rebuilds from the
	// log).
	deferred
)

// writeFileAtomic replaces path with data so that a reader (or a crash) sees either the
// old file or the new one, never a mix: write a temp file in the same folder, fsync it,
// rename it over path, then fsync the folder so the rename itself is durable; d says
// which of those fsyncs to do.
func writeFileAtomic(path string, data []byte, d durability) (err error) {
	dir := filepath.Dir(path)
	// The temp name starts with a dot so List never mistakes it for a session.
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(fileMode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d != deferred {
		if err = tmp.Sync(); err != nil {
			return fmt.Errorf("write %s: fsync: %w", path, err)
		}
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d != durable {
		return nil
	}
	return syncDir(dir)
}

// syncFile fsyncs the file at path.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("fsync %s: %w", path, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", path, err)
	}
	return nil
}

// syncDir makes creations, renames and removals inside dir durable. Windows cannot
// open a directory for syncing and its renames are already journaled, so it is skipped.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("fsync folder %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("fsync folder %s: %w", dir, err)
	}
	return nil
}
