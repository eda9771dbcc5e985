package builtin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"

	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// target is where a path the model named really leads. The permission policy judges
// real, and the file tools open real and nothing else.
type target struct {
	// named is the path as the model named it, absolute and clean.
	named string
	// real is named with every link resolved (see sensitive.Resolve).
	real string
	// root is the workspace with its own links resolved; inside says real lies in it.
	root   string
	inside bool
}

// locate resolves a path the model sent. It fails only on a link loop.
func (e Env) locate(p string) (target, error) {
	named := e.resolve(p)
	root, err := sensitive.Resolve(e.resolve(e.workDir()))
	if err != nil {
		return target{}, fmt.Errorf("the workspace %s: %w", e.workDir(), err)
	}
	real, err := sensitive.Resolve(named)
	if err != nil {
		return target{named: named, root: root}, err
	}
	return target{named: named, real: real, root: root, inside: sensitive.Within(root, real)}, nil
}

// paths is what a call reports to the permission policy: the real target, and the
// named path too when a link lies between them, so a refusal can name both.
func (t target) paths() []string {
	if t.real == "" {
		return []string{t.named}
	}
	if t.real == t.named {
		return []string{t.real}
	}
	return []string{t.real, t.named}
}

// via describes the link a target was reached through, for messages.
func (t target) via(e Env) string {
	if t.real == t.named || t.real == "" {
		return ""
	}
	return fmt.Sprintf(" (through the link %s)", e.display(t.named))
}

// secret returns the secret path t reaches, if any; secrets are refused to file tools
// whatever the permission said (the policy refuses them first; this holds when a
// tool runs without the policy).
func (e Env) secret(real string) (string, bool) {
	secrets := e.Secrets
	if secrets == nil {
		secrets = sensitive.DefaultSecrets()
	}
	return sensitive.Refused(secrets, e.AllowSecrets, real)
}

// checkedTargets remembers where each named path led when the permission policy was
// asked, so that a call runs on that target or not at all: a link swapped between the
// check and the run would otherwise carry an approval for one file to another.
type checkedTargets struct {
	mu   sync.Mutex
	real map[string]string
}

// maxChecked bounds the memory; a call checked but never run (denied) leaves an
// entry. 1024 is far more than one turn's calls; past it the memory starts afresh.
const maxChecked = 1024

func (c *checkedTargets) note(t target) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.real == nil || len(c.real) >= maxChecked {
		c.real = map[string]string{}
	}
	c.real[t.named] = t.real
}

// confirm refuses a target that differs from the one the policy saw for the same
// named path. A call that was never checked (a tool run directly) passes.
func (c *checkedTargets) confirm(t target) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if was, ok := c.real[t.named]; ok && was != t.real {
		return fmt.Errorf("%s led to %s when its permission was checked and now leads to %s; call the tool again so the new target is checked", t.named, was, t.real)
	}
	return nil
}

// errChanged says a file found is not the one a path resolved to a moment before:
// a link was swapped in between.
var errChanged = errors.New("the path changed while it was being opened (a link was swapped)")

// openDir opens the directory dir (a real path) so that later operations happen in
// exactly that directory: inside the workspace through an os.Root of the workspace,
// so a link swapped in that escapes it fails; anywhere, by checking that the
// directory opened is dir itself. With create, missing directories are made first.
func openDir(t target, dir string, create bool) (*os.Root, error) {
	var (
		r   *os.Root
		err error
	)
	if t.inside {
		ws, err := os.OpenRoot(t.root)
		if err != nil {
			return nil, err
		}
		defer ws.Close()
		rel, err := filepath.Rel(t.root, dir)
		if err != nil {
			return nil, err
		}
		if create {
			if err := ws.MkdirAll(rel, 0o755); err != nil {
				return nil, err
			}
		}
		r, err = ws.OpenRoot(rel)
		if err != nil {
			return nil, err
		}
	} else {
		if create {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, err
			}
		}
		if r, err = os.OpenRoot(dir); err != nil {
			return nil, err
		}
	}
	d, err := r.Open(".")
	if err == nil {
		err = isAt(d, dir)
		d.Close()
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// openReal opens t.real for reading, refusing a file that is not t.real.
func openReal(t target) (*os.File, error) {
	dir, err := openDir(t, filepath.Dir(t.real), false)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	f, err := openPlain(dir, filepath.Base(t.real))
	if err != nil {
		return nil, err
	}
	if err := isAt(f, t.real); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// errNotPlain refuses what file tools do not read: opening a FIFO blocks until a
// writer comes (a command's mkfifo hung the agent, deaf to SIGTERM), and a device
// may never end.
var errNotPlain = errors.New("is not a regular file or a folder (a FIFO, a socket or a device): file tools read files; use bash for the rest")

// openPlain opens name in dir for reading without waiting on a FIFO, and refuses
// anything but a regular file or a folder.
func openPlain(dir *os.Root, name string) (*os.File, error) {
	f, err := dir.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		err = fmt.Errorf("%s %w", name, errNotPlain)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// isAt checks that the open file f is the one at path. On Linux the kernel says
// where the descriptor leads; elsewhere f must be the same file as path, which no
// link may lead to (path is real).
func isAt(f *os.File, path string) error {
	if got, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd()))); err == nil {
		if got != path {
			return fmt.Errorf("%w: %s now leads to %s", errChanged, path, got)
		}
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	li, err := os.Lstat(path)
	if err != nil || !os.SameFile(fi, li) {
		return fmt.Errorf("%w: %s", errChanged, path)
	}
	return nil
}

// reach resolves the path a call names when the call runs, and refuses what no file
// tool may touch: a link loop, a secret, a target other than the one the permission
// policy checked. The refusal is a model-visible message naming the rule.
func (e Env) reach(checked *checkedTargets, toolName, p string) (target, string) {
	t, err := e.locate(p)
	if err != nil {
		return t, fmt.Sprintf("cannot resolve %s: %v", e.display(t.named), err)
	}
	if s, ok := e.secret(t.real); ok {
		return t, fmt.Sprintf("%s of %s%s is refused: it lies in %s, a secret path no tool may read or write. %s",
			toolName, t.real, t.via(e), s, sensitive.AllowSecretHint(t.real))
	}
	if err := checked.confirm(t); err != nil {
		return t, err.Error()
	}
	return t, ""
}

// report is a file tool's Paths: it resolves the named path, remembers where it led
// and reports that to the policy.
func (c *checkedTargets) report(e Env, p string) []string {
	t, err := e.locate(p)
	if err != nil {
		return []string{t.named}
	}
	c.note(t)
	return t.paths()
}
