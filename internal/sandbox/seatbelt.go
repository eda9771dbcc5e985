package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// seatbeltProfile is the sandbox-exec profile for p on macOS, in Apple's sandbox
// profile language: everything allowed but writes, which go only to the writable
// roots, never to the control files below them; secrets unreadable; no network
// unless p allows it. Unlike Landlock, Seatbelt matches paths by name, so a control
// file that does not exist yet is protected too.
func seatbeltProfile(p Policy) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n")
	b.WriteString("(deny file-write*)\n")
	var roots []string
	add := func(path string) {
		if path != "" {
			roots = append(roots, fmt.Sprintf("(subpath %s)", quote(realPath(path))))
		}
	}
	add(p.TempDir)
	if p.Mode == WorkspaceWrite {
		add(p.WorkDir)
		for _, w := range p.Writable {
			add(w)
		}
	}
	roots = append(roots, `(literal "/dev/null")`, `(literal "/dev/zero")`, `(literal "/dev/tty")`, `(regex #"^/dev/ttys[0-9]+$")`)
	fmt.Fprintf(&b, "(allow file-write* %s)\n", strings.Join(roots, " "))
	if p.Mode == WorkspaceWrite && p.WorkDir != "" {
		var deny []string
		for _, root := range append([]string{realPath(p.WorkDir)}, p.ControlRoots...) {
			for _, rel := range sensitive.TopLevelControl {
				deny = append(deny, fmt.Sprintf("(subpath %s)", quote(filepath.Join(root, rel))))
			}
			if hooks := sensitive.HooksDir(root); hooks != "" {
				deny = append(deny, fmt.Sprintf("(subpath %s)", quote(hooks)))
			}
			deny = append(deny, fmt.Sprintf("(literal %s)", quote(filepath.Join(root, ".git"))))
		}
		fmt.Fprintf(&b, "(deny file-write* %s)\n", strings.Join(deny, " "))
	}
	if len(p.Secrets) > 0 {
		var deny []string
		for _, s := range p.Secrets {
			deny = append(deny, fmt.Sprintf("(subpath %s)", quote(s)))
		}
		fmt.Fprintf(&b, "(deny file-read* file-write* %s)\n", strings.Join(deny, " "))
	}
	if !p.Network {
		b.WriteString("(deny network-outbound (remote ip))\n(deny network-inbound (local ip))\n")
	}
	return b.String()
}

// quote writes s as a profile string literal.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
