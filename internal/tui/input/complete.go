package input

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Suggestion is one entry of the completion menu.
type Suggestion struct {
	// Text replaces the word being completed.
	Text string
	// Label and Detail are what the menu shows.
	Label, Detail string
}

// maxSuggestions bounds the menu: more than fits beside a small screen's input is
// noise; the user types more letters instead. Judgement.
const maxSuggestions = 8

// CompletePath lists the entries of workDir matching the "@path" word token:
// the part after the last slash is a case-insensitive prefix of the name, folders
// end with a slash, hidden entries only show when asked for with a leading dot.
func CompletePath(workDir, token string) []Suggestion {
	rel := strings.TrimPrefix(token, "@")
	dir, prefix := filepath.Split(rel)
	if filepath.IsAbs(dir) || strings.Contains(filepath.Clean(dir), "..") {
		return nil
	}
	entries, err := os.ReadDir(filepath.Join(workDir, dir))
	if err != nil {
		return nil
	}
	lower := strings.ToLower(prefix)
	var out []Suggestion
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") && !strings.HasPrefix(prefix, ".") {
			continue
		}
		if !strings.HasPrefix(strings.ToLower(name), lower) {
			continue
		}
		if e.IsDir() {
			name += "/"
		}
		out = append(out, Suggestion{Text: "@" + dir + name, Label: dir + name})
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := strings.HasSuffix(out[i].Label, "/"), strings.HasSuffix(out[j].Label, "/")
		if di != dj {
			return di
		}
		return out[i].Label < out[j].Label
	})
	if len(out) > maxSuggestions {
		out = out[:maxSuggestions]
	}
	return out
}

// lastWord returns the word the cursor ends, when the cursor is at the very end of
// value: completion only ever replaces the word being typed.
func lastWord(value string) string {
	i := strings.LastIndexAny(value, " \t\n")
	return value[i+1:]
}
