package sensitive

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the links one resolution follows, as the kernel's own 40 does for
// a path lookup; 255 is generous and still stops a loop at once.
const maxLinks = 255

// Resolve returns where the absolute path really leads: every symbolic link is
// followed, "." and ".." are applied to the resolved directory (as the kernel does),
// and the part that does not exist yet is appended as it is. A dangling link is
// followed to its missing target, since a create through it would land there. A
// component that cannot be read (no permission) counts as missing: the caller's
// own open of it would fail as well. The result is clean and absolute; it may name a
// file that does not exist.
func Resolve(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("resolve %q: the path is not absolute", path)
	}
	sep := string(filepath.Separator)
	resolved := sep
	rest := strings.Split(path, sep)
	missing := false // once a component is missing, nothing below it can be a link
	links := 0
	for len(rest) > 0 {
		name := rest[0]
		rest = rest[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			missing = false
			continue
		}
		next := filepath.Join(resolved, name)
		if missing {
			resolved = next
			continue
		}
		info, err := os.Lstat(next)
		if err != nil {
			resolved, missing = next, true
			continue
		}
		if info.Mode()&os.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("resolve %s: more than %d symbolic links (a loop?)", path, maxLinks)
		}
		target, err := os.Readlink(next)
		if err != nil {
			resolved, missing = next, true
			continue
		}
		if filepath.IsAbs(target) {
			resolved = sep
		}
		rest = append(strings.Split(target, sep), rest...)
	}
	return resolved, nil
}
