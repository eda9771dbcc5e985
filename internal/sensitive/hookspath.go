package sensitive

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// RuleGitHooksPath protects the folder core.hooksPath names when it lies in the
// workspace (husky's .husky/_): git runs the hooks there as it would .git/hooks.
const RuleGitHooksPath = "core.hooksPath"

// HooksDir returns the hooks folder that root/.git/config's core.hooksPath names,
// absolute and cleaned, when it lies below root; "" otherwise. Only the core section
// of the repository's own config is read: the user's global config is theirs.
func HooksDir(root string) string {
	f, err := os.Open(filepath.Join(root, ".git", "config"))
	if err != nil {
		return ""
	}
	defer f.Close()
	var value string
	inCore := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			inCore = strings.EqualFold(strings.Trim(strings.TrimSpace(strings.Trim(line, "[]")), `"`), "core")
			continue
		}
		key, v, ok := strings.Cut(line, "=")
		if inCore && ok && strings.EqualFold(strings.TrimSpace(key), "hookspath") {
			value = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	if value == "" || strings.HasPrefix(value, "~") {
		return ""
	}
	dir := value
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	dir = filepath.Clean(dir)
	if dir == filepath.Clean(root) || !Within(filepath.Clean(root), dir) {
		return ""
	}
	return dir
}
