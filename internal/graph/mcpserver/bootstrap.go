package mcpserver

import (
	"context"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/graph/artifact"
)

// bootstrap starts a repository that has no index from the artifact its team
// committed (artifact.RelPath), so analyze_codebase parses only what changed
// since; it says what happened, for the report. An unusable artifact is named
// and the index built from scratch.
func (h *handler) bootstrap(ctx context.Context, path string) string {
	m, err := artifact.Bootstrap(ctx, h.cfg.Root, path)
	switch {
	case err != nil:
		return fmt.Sprintf("%v; indexed from scratch", err)
	case m != nil:
		return fmt.Sprintf("started from %s (%d files, commit %.12s), then indexed what changed since", artifact.RelPath, len(m.Files), m.Commit)
	}
	return ""
}
