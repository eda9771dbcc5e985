package sandbox

import (
	"os"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// WatchControl notes which of the workspace's top-level control files are missing
// before a command that may write the workspace runs. A mount namespace keeps the
// existing ones read-only, but none can be mounted over a file that does not exist
// yet, and Landlock cannot refuse one name in a writable folder; so the returned
// function, called when the command ends, removes any that the command created and
// returns their paths. It does nothing when the sandbox is off or mode is not
// WorkspaceWrite.
func (s *Sandbox) WatchControl(mode Mode) func() []string {
	if s == nil || s.cfg.Mode == Off || mode != WorkspaceWrite || s.cfg.WorkDir == "" {
		return func() []string { return nil }
	}
	ws := realPath(s.cfg.WorkDir)
	var missing []string
	for _, rel := range sensitive.TopLevelControl {
		p := filepath.Join(ws, rel)
		if _, err := os.Lstat(p); err != nil {
			missing = append(missing, p)
		}
	}
	return func() []string {
		var removed []string
		for _, p := range missing {
			if _, err := os.Lstat(p); err == nil {
				if os.RemoveAll(p) == nil {
					removed = append(removed, p)
				}
			}
		}
		return removed
	}
}
