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

// watchDirs starts a dirWatcher; a test replaces it to take the walking path.
var watchDirs = newDirWatcher

func isControlName(name string) bool { return slices.Contains(controlNames, name) }

// maxScanEntries bounds the walk of the workspace for nested control entries. A
// judgement: ten times a large repository (this one, 48,000 entries, walks in
// 60 ms); past it the walk stops and what it did not reach is not checked.
const maxScanEntries = 500_000

// nestedControl knows the control entries below the workspace's top level, and
// finds those a command made: from inotify's events where it can watch the
// workspace, else by walking it after each command.
type nestedControl struct {
	mu      sync.Mutex
	scanned bool
	entries map[string]bool
	watcher *dirWatcher
}

// scan learns the control entries below ws and starts watching it.
func (nc *nestedControl) scan(ws string) {
	nc.watcher.close()
	w, found, err := watchDirs(ws)
	if err != nil {
		w, found = nil, scanControl(ws)
	}
	nc.watcher, nc.entries, nc.scanned = w, found, true
}

func (nc *nestedControl) close() {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	nc.watcher.close()
	nc.watcher, nc.scanned = nil, false
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
		if isControlName(d.Name()) && filepath.Dir(p) != root {
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
		nc.scan(ws)
	}
	var out []string
	for p := range nc.entries {
		out = append(out, filepath.Dir(p))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// removeCreated finds, after a command that began at start, the control entries
// below the workspace's top level that were not known before and whose inode
// changed since start (the command made them; one a person made between two
// commands is kept), removes them and returns their paths. A nested .git that can
// run nothing (nestedGitRisk) stays, so git clone and git init work; one removed
// is reported with the reason.
func (nc *nestedControl) removeCreated(ws string, start time.Time) []string {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	if !nc.scanned {
		nc.scan(ws)
	}
	known := nc.entries
	var found map[string]bool
	ok := false
	if nc.watcher != nil {
		found, ok = nc.watcher.changes(ws)
	}
	if !ok {
		nc.scan(ws) // the events cannot say it all: walk, and watch afresh
		found = nc.entries
	}
	fromEvents := ok // every entry found was made or moved in since the last check
	// All are judged before any is removed: a submodule's .git file is judged with
	// the clone's .git folder it points into still there.
	reports := map[string]string{}
	for p := range found {
		// An entry the events report was made again since the last check even if its
		// path was known (the user removed it between two commands): check it anew.
		if known[p] && !fromEvents || !changedSince(p, start) {
			nc.entries[p] = true
			continue
		}
		reports[p] = p
		if filepath.Base(p) == ".git" {
			why := nestedGitRisk(ws, p)
			if why == "" {
				nc.entries[p] = true // kept; its control files are read-only from the next command on
				delete(reports, p)
				continue
			}
			reports[p] += " (" + why + ")"
		}
	}
	var removed []string
	for p, report := range reports {
		if os.RemoveAll(p) == nil {
			removed = append(removed, report)
			delete(nc.entries, p)
		}
	}
	slices.Sort(removed)
	return removed
}
