package sandbox

import (
	"os"
	"path/filepath"
	"time"

	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// WatchControl notes which of the workspace's top-level control files, and those of
// its nested roots (folders below it with control files of their own), are missing
// before a command that may write the workspace runs. A mount namespace keeps the
// existing ones read-only, but none can be mounted over a file that does not exist
// yet, and Landlock cannot refuse one name in a writable folder; so the returned
// function, called when the command ends, removes any that the command created and
// returns their paths. A control entry made anywhere else below the workspace is
// removed too, but for a nested .git that can run nothing (a plain git clone or git
// init; see nestedGitRisk): git enters a nested repository as a submodule, and an
// armed one's config or hooks would run programs. A removed .git is reported with
// the reason, "path (reason)". A .git that was missing and is now a file (gitdir: elsewhere,
// which points git at another folder's config and hooks) is removed too; a new .git
// folder stays, without its config and hooks. It does nothing when the sandbox is off
// or mode is not WorkspaceWrite.
func (s *Sandbox) WatchControl(mode Mode) func() []string {
	if s == nil || s.cfg.Mode == Off || mode != WorkspaceWrite || s.cfg.WorkDir == "" {
		return func() []string { return nil }
	}
	ws := realPath(s.cfg.WorkDir)
	start := time.Now()
	var missing []string
	gitDir := filepath.Join(ws, ".git")
	_, err := os.Lstat(gitDir)
	gitMissing := err != nil
	for _, root := range append([]string{ws}, s.nested.roots(ws)...) {
		controls := []string{sensitive.HooksDir(root)}
		for _, rel := range sensitive.TopLevelControl {
			controls = append(controls, filepath.Join(root, rel))
		}
		for _, p := range controls {
			if _, err := os.Lstat(p); p != "" && err != nil {
				missing = append(missing, p)
			}
		}
	}
	return func() []string {
		var removed []string
		if fi, err := os.Lstat(gitDir); gitMissing && err == nil && !fi.IsDir() {
			if os.Remove(gitDir) == nil {
				removed = append(removed, gitDir)
			}
		}
		for _, p := range missing {
			if _, err := os.Lstat(p); err == nil {
				if os.RemoveAll(p) == nil {
					removed = append(removed, p)
				}
			}
		}
		return append(removed, s.nested.removeCreated(ws, start)...)
	}
}
