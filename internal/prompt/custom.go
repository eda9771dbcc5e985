package prompt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// BuiltinIDs name the built-in base prompt: empty, and "cli", the original's default
// system_prompt_id, so a migrated configuration keeps working.
var BuiltinIDs = []string{"", "cli"}

// maxCustomPrompt caps a prompt file: a base prompt is instructions, not a corpus
// (judgement: twice the project instructions' cap).
const maxCustomPrompt = 64 << 10

// LoadCustom returns the text of prompt id, the file <id>.md in the first of dirs
// that has it, and that file's path; for a built-in id it returns "" and no error.
// The caller lists in dirs only folders it may read (a project's only when trusted).
func LoadCustom(id string, dirs []string) (text, path string, err error) {
	if slices.Contains(BuiltinIDs, id) {
		return "", "", nil
	}
	if strings.ContainsAny(id, `/\`) || strings.HasPrefix(id, ".") {
		return "", "", fmt.Errorf("system_prompt_id %q: a prompt id is a file name without .md, not a path", id)
	}
	for _, d := range dirs {
		p := filepath.Join(d, id+".md")
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", "", fmt.Errorf("system_prompt_id %q: read %s: %w", id, p, err)
		}
		if len(data) > maxCustomPrompt {
			return "", "", fmt.Errorf("system_prompt_id %q: %s is %d bytes, more than the %d KiB a prompt file may hold", id, p, len(data), maxCustomPrompt>>10)
		}
		if strings.TrimSpace(string(data)) == "" {
			return "", "", fmt.Errorf("system_prompt_id %q: %s is empty; write the prompt in it or set system_prompt_id to \"\" for the built-in one", id, p)
		}
		return string(data), p, nil
	}
	avail := Available(dirs)
	list := "none"
	if len(avail) > 0 {
		list = strings.Join(avail, ", ")
	}
	return "", "", fmt.Errorf("system_prompt_id %q: no %s.md in %s; available prompts: %s (or \"\" for the built-in one)",
		id, id, strings.Join(dirs, ", "), list)
}

// Available lists the prompt ids found in dirs, sorted, without repeats.
func Available(dirs []string) []string {
	var ids []string
	for _, d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if name, ok := strings.CutSuffix(e.Name(), ".md"); ok && !e.IsDir() && !strings.HasPrefix(name, ".") {
				ids = append(ids, name)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}
