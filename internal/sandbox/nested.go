package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// controlNames are the entries that configure what runs later in the folder that
// holds them: git enters a nested repository as a submodule when the top index
// holds a link to it (git status then runs that repository's core.fsmonitor),
// and our agent, the original and editors read the project files of the folder
// they start in.
var controlNames = []string{".git", ".albert-code.toml", ".albert-code", ".vibe.toml", ".vibe", ".mcp.json"}

// maxScanEntries bounds the walk of the workspace for nested control entries. A
// judgement: ten times a large repository (this one, 48,000 entries, walks in
// 60 ms); past it the walk stops and what it did not reach is not checked.
const maxScanEntries = 500_000

// nestedControl is what the last walk of the workspace found: the control entries
// below its top level, and the folders that hold them.
type nestedControl struct {
	mu      sync.Mutex
	scanned bool
	entries map[string]bool
}

// scanControl returns the control entries below root, not root's own (the
// top-level rules govern those), without entering a .git folder.
func scanControl(root string) map[string]bool {
	found := map[string]bool{}
	n := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > maxScanEntries {
			return filepath.SkipAll
		}
		if p == root {
			return nil
		}
		if slices.Contains(controlNames, d.Name()) && filepath.Dir(p) != root {
			found[p] = true
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		return nil
	})
	return found
}

// roots returns the folders below the workspace that held control entries at the
// last walk, walking it the first time: their control files are kept read-only
// as the top level's are.
func (nc *nestedControl) roots(ws string) []string {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	if !nc.scanned {
		nc.entries, nc.scanned = scanControl(ws), true
	}
	var out []string
	for p := range nc.entries {
		out = append(out, filepath.Dir(p))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// removeCreated walks the workspace after a command that began at start, removes
// the control entries below its top level that the walk before did not know and
// whose inode changed since start (the command made them; one a person made
// between two commands is kept), and returns their paths.
func (nc *nestedControl) removeCreated(ws string, start time.Time) []string {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	var removed []string
	found := scanControl(ws)
	for p := range found {
		if nc.entries[p] || !changedSince(p, start) {
			continue
		}
		if os.RemoveAll(p) == nil {
			removed = append(removed, p)
			delete(found, p)
		}
	}
	nc.entries, nc.scanned = found, true
	slices.Sort(removed)
	return removed
}
