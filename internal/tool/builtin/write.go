package builtin

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed write.md
var writeDescription string

// newFileMode is what a created file gets: the usual umask-022 result for source files.
const newFileMode = 0o644

// WriteParams are the arguments of the write tool.
type WriteParams struct {
	Path    string `json:"path" jsonschema:"the file to write, absolute or relative to the workspace"`
	Content string `json:"content" jsonschema:"the complete new content of the file"`
}

// Write creates or replaces a whole file, atomically, creating parent directories.
func Write(env Env) tool.Tool {
	checked := &checkedTargets{}
	return tool.New(tool.Def[WriteParams]{
		Info:  tool.Info{Name: "write", Description: writeDescription, Kind: tool.KindEdit},
		Paths: func(p WriteParams) []string { return checked.report(env, p.Path) },
		Run: func(ctx context.Context, call tool.Call, p WriteParams) (tool.Result, error) {
			t, refused := env.reach(checked, "write", p.Path)
			if refused != "" {
				return tool.Errorf("%s", refused), nil
			}
			shown := env.display(t.named)
			old, mode, exists, err := readExisting(t)
			if err != nil {
				return tool.Errorf("cannot write %s: %v", shown, err), nil
			}
			if !exists {
				mode = newFileMode
			}
			if exists && old == p.Content {
				return tool.Text(fmt.Sprintf("%s already has this content; nothing changed", shown)), nil
			}
			if err := writeAtomic(t, []byte(p.Content), mode); err != nil {
				return tool.Errorf("cannot write %s: %v", shown, err), nil
			}
			diff := newFileDiff(shown, old, p.Content, !exists)
			msg := fmt.Sprintf("Updated %s (+%d -%d lines)", shown, diff.Added, diff.Removed)
			if !exists {
				msg = fmt.Sprintf("Created %s (%d lines)", shown, diff.Added)
			}
			return tool.Result{Output: msg, Display: diff}, nil
		},
	})
}
