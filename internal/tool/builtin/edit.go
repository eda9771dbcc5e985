package builtin

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed edit.md
var editDescription string

// EditParams are the arguments of the edit tool.
type EditParams struct {
	Path       string `json:"path" jsonschema:"the file to edit, absolute or relative to the workspace"`
	OldString  string `json:"old_string" jsonschema:"the exact text to replace, including indentation; empty only to create a new file"`
	NewString  string `json:"new_string" jsonschema:"the text to put in its place"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string instead of exactly one"`
}

// Edit replaces an exact, unique piece of a file. An empty old_string creates a file
// that does not exist yet (or fills an empty one), so one tool covers "add this new
// file" without the model reaching for write.
func Edit(env Env) tool.Tool {
	checked := &checkedTargets{}
	return tool.New(tool.Def[EditParams]{
		Info:  tool.Info{Name: "edit", Description: editDescription, Kind: tool.KindEdit},
		Paths: func(p EditParams) []string { return checked.report(env, p.Path) },
		Run: func(ctx context.Context, call tool.Call, p EditParams) (tool.Result, error) {
			return editFile(env, checked, p), nil
		},
	})
}

func editFile(env Env, checked *checkedTargets, p EditParams) tool.Result {
	if p.OldString == p.NewString {
		return tool.Errorf("old_string and new_string are identical; nothing to change")
	}
	t, refused := env.reach(checked, "edit", p.Path)
	if refused != "" {
		return tool.Errorf("%s", refused)
	}
	shown := env.display(t.named)
	old, mode, exists, err := readExisting(t)
	if err != nil {
		return tool.Errorf("cannot edit %s: %v", shown, err)
	}

	var updated string
	var count int
	switch {
	case p.OldString == "" && (!exists || old == ""):
		updated, count = p.NewString, 1
		if !exists {
			mode = newFileMode
		}
	case p.OldString == "":
		return tool.Errorf("old_string is empty but %s already has content; give the text to replace, or use write to replace the whole file", shown)
	case !exists:
		return tool.Errorf("%s does not exist%s", shown, suggest(t.named))
	default:
		oldS, newS := p.OldString, p.NewString
		count = strings.Count(old, oldS)
		if count == 0 && strings.Contains(old, "\r\n") {
			// The model writes "\n"; the file uses CRLF. Match and write in the file's style.
			oldS, newS = toCRLF(oldS), toCRLF(newS)
			count = strings.Count(old, oldS)
		}
		switch {
		case count == 0:
			return tool.Errorf("old_string was not found in %s. It must match the file exactly, including whitespace and indentation, and must not include read's line-number prefixes; read the file again and copy the text", shown)
		case count > 1 && !p.ReplaceAll:
			return tool.Errorf("old_string matches %d places in %s; add surrounding lines to make it unique, or set replace_all to change every occurrence", count, shown)
		}
		updated = strings.ReplaceAll(old, oldS, newS)
	}

	if err := writeAtomic(t, []byte(updated), mode); err != nil {
		return tool.Errorf("cannot write %s: %v", shown, err)
	}
	diff := newFileDiff(shown, old, updated, !exists)
	msg := fmt.Sprintf("Edited %s: %s (+%d -%d lines)", shown, plural(count, "replacement"), diff.Added, diff.Removed)
	if !exists {
		msg = fmt.Sprintf("Created %s (%d lines)", shown, diff.Added)
	}
	return tool.Result{Output: msg, Display: diff}
}

// toCRLF rewrites bare "\n" line endings as "\r\n", leaving existing "\r\n" alone.
func toCRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
