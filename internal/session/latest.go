package session

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// latestDir holds one small file per working directory naming the session of that
// directory whose meta was written last. Latest reads it instead of every session's
// meta: the serve layer continues a workspace's session on every run, and a store of
// thousands of sessions made each lookup read thousands of files. The name starts
// with a dot, so the store never lists it as a session.
const latestDir = ".latest"

// latestFile is the pointer file of cwd (already cleaned).
func latestFile(storeDir, cwd string) string {
	sum := sha256.Sum256([]byte(cwd))
	return filepath.Join(storeDir, latestDir, hex.EncodeToString(sum[:16]))
}

// markLatest records m as the latest session of its directory, after its meta was
// written. Sub-agent sessions and sessions with no directory are never "latest".
// Failing to write the pointer loses nothing: Latest then scans the store.
func markLatest(sessionDir string, m Meta) {
	if m.ParentID != "" || m.Cwd == "" {
		return
	}
	storeDir := filepath.Dir(sessionDir)
	path := latestFile(storeDir, m.Cwd)
	data := []byte(m.ID + "\n" + m.Cwd + "\n")
	if err := writeFileAtomic(path, data, deferred); err != nil {
		if os.MkdirAll(filepath.Dir(path), dirMode) == nil {
			_ = writeFileAtomic(path, data, deferred)
		}
	}
}

// pointedLatest returns the session the pointer of cwd names, if the pointer is
// there and still true: the session exists, is top-level and was started in cwd.
func (s *Store) pointedLatest(cwd string) (string, bool) {
	data, err := os.ReadFile(latestFile(s.dir, cwd))
	if err != nil {
		return "", false
	}
	id, rest, ok := strings.Cut(string(data), "\n")
	if !ok || strings.TrimSuffix(rest, "\n") != cwd || checkRef(id) != nil {
		return "", false
	}
	m, _, err := readMeta(filepath.Join(s.dir, id))
	if err != nil || m.ParentID != "" || cleanPath(m.Cwd) != cwd {
		return "", false
	}
	return id, true
}
