package migrate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/etalab-ia/albert-code/internal/session"
)

// OriginalSessionDir is where the original kept its sessions (save_dir's default,
// notes §2.11).
func OriginalSessionDir(home string) string { return filepath.Join(home, "logs", "session") }

// SessionReport says what ImportSessions did.
type SessionReport struct {
	Imported []string // session IDs copied and converted this time
	Already  int      // sessions imported by an earlier run
	Notices  []string // sessions that could not be imported, one line each
}

// ImportSessions copies each session folder of the original's logs/session into
// dir, under the same name, and converts the copy to our format (session.Store
// keeps the copy's own meta.json.bak and messages.jsonl.bak). The original folders
// are left as they are: they are the backup. A folder already in dir is skipped, so
// running it again imports only what is new. One that cannot be read is a notice,
// and its copy is removed; the original stays.
func ImportSessions(home, dir string) SessionReport {
	var r SessionReport
	src := OriginalSessionDir(home)
	entries, err := os.ReadDir(src)
	if errors.Is(err, fs.ErrNotExist) {
		return r
	}
	if err != nil {
		r.Notices = append(r.Notices, fmt.Sprintf("the original's sessions in %s were not imported: %v", src, err))
		return r
	}
	store := session.NewStore(dir)
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(src, name, "meta.json")); err != nil {
			continue // not a session folder (the original's agents/ traces live inside them)
		}
		dst := filepath.Join(dir, name)
		if _, err := os.Stat(dst); err == nil {
			r.Already++
			continue
		}
		if err := importOne(store, filepath.Join(src, name), dir, name); err != nil {
			r.Notices = append(r.Notices, fmt.Sprintf("the original's session %s was not imported (it stays in %s): %v", name, src, err))
			continue
		}
		r.Imported = append(r.Imported, name)
	}
	return r
}

// importOne copies from into a hidden temporary folder of dir (the store ignores
// names starting with '.'), renames it into place, then opens it once so the
// conversion runs now and a session that cannot be read is reported here.
func importOne(store *session.Store, from, dir, name string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, ".import-"+name+"-")
	if err != nil {
		return err
	}
	if err := os.CopyFS(tmp, os.DirFS(from)); err != nil {
		_ = os.RemoveAll(tmp)
		return fmt.Errorf("copy: %w", err)
	}
	dst := filepath.Join(dir, name)
	if err := os.Rename(tmp, dst); err != nil {
		_ = os.RemoveAll(tmp)
		return err
	}
	l, _, err := store.Open(name)
	if err != nil {
		_ = os.RemoveAll(dst)
		return err
	}
	return l.Close()
}
