package artifact

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// GitAttributesLine keeps the artifact out of line-based diffs and merges:
// binary (no text diff, no three-way merge of compressed bytes) and merge=ours,
// which with `git config merge.ours.driver true` makes a merge keep the current
// branch's artifact without a conflict. Either side's artifact is a good start:
// the next index run updates whatever the merge changed.
const GitAttributesLine = "/" + RelPath + " binary merge=ours"

// EnsureGitAttributes adds GitAttributesLine to root's .gitattributes unless a
// line already names the artifact; it reports whether it added it.
func EnsureGitAttributes(root string) (bool, error) {
	path := filepath.Join(root, ".gitattributes")
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	for line := range strings.Lines(string(b)) {
		fields := strings.Fields(line)
		if len(fields) > 0 && strings.TrimPrefix(fields[0], "/") == RelPath {
			return false, nil
		}
	}
	if len(b) > 0 && !strings.HasSuffix(string(b), "\n") {
		b = append(b, '\n')
	}
	b = append(b, GitAttributesLine+"\n"...)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	return true, nil
}
