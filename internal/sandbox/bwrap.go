package sandbox

import (
	"os"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// bwrapArgs are bubblewrap's arguments for p, up to the command: the root read-only,
// a fresh /dev and /proc in a private PID namespace, the writable roots bound
// read-write, the workspace's control files bound read-only over them, and every
// existing secret hidden (an empty tmpfs over a folder, /dev/null over a file).
func bwrapArgs(p Policy, dir string) []string {
	args := []string{"bwrap", "--die-with-parent", "--new-session", "--unshare-pid",
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}
	if !p.Network {
		args = append(args, "--unshare-net")
	}
	bind := func(path string) {
		if path = realPath(path); path != "" && exists(path) {
			args = append(args, "--bind", path, path)
		}
	}
	bind(p.TempDir)
	if p.Mode == WorkspaceWrite {
		bind(p.WorkDir)
		for _, w := range p.Writable {
			bind(w)
		}
		for _, root := range append([]string{realPath(p.WorkDir)}, p.ControlRoots...) {
			if fi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && fi.IsDir() {
				args = append(args, "--bind", filepath.Join(root, ".git"), filepath.Join(root, ".git"))
			}
			controls := []string{sensitive.HooksDir(root)}
			for _, rel := range sensitive.TopLevelControl {
				controls = append(controls, filepath.Join(root, rel))
			}
			for _, c := range controls {
				if fi, err := os.Lstat(c); c != "" && err == nil && fi.Mode()&os.ModeSymlink == 0 {
					args = append(args, "--ro-bind", c, c)
				}
			}
		}
	}
	if p.Mode == WorkspaceWrite {
		for _, sock := range sessionSockets(netUnix, writableRoots(p)) {
			args = append(args, "--ro-bind", "/dev/null", sock)
		}
	}
	for _, h := range hiddenPaths(p.Secrets) {
		fi, err := os.Lstat(h)
		switch {
		case err != nil || fi.Mode()&os.ModeSymlink != 0:
		case fi.IsDir():
			args = append(args, "--tmpfs", h, "--remount-ro", h)
		default:
			args = append(args, "--ro-bind", "/dev/null", h)
		}
	}
	if dir != "" {
		args = append(args, "--chdir", dir)
	}
	return args
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
