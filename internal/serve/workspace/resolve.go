package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Reasons a name is refused, matched with errors.Is on a *NameError.
var (
	ErrAbsolute  = errors.New("absolute paths are not allowed")
	ErrTraversal = errors.New(`".." is not allowed`)
	ErrInvalid   = errors.New("invalid characters")
	ErrEscape    = errors.New("a symbolic link leads outside the workspace root")
	ErrNotExist  = errors.New("no such workspace")
	ErrNotDir    = errors.New("not a directory")
	ErrTooLong   = errors.New("too long")
)

// Name limits, Linux's NAME_MAX and PATH_MAX: past them the system call fails with
// ENAMETOOLONG, which is the client's fault (a 400), not the server's.
const (
	MaxComponentBytes = 255
	MaxPathBytes      = 4096
)

// shownInput bounds how much of a refused name an error repeats; judgement: enough
// to recognise it, not a 5,000-character echo.
const shownInput = 120

// NameError says why a workspace name or a path in it was refused, naming the input
// as the client sent it.
type NameError struct {
	Input string
	Err   error
	// Hint tells the client what to send instead.
	Hint string
}

func (e *NameError) Error() string {
	shown := e.Input
	if len(shown) > shownInput {
		shown = strings.ToValidUTF8(shown[:shownInput], "") + "…"
	}
	msg := fmt.Sprintf("workspace path %q: %v", shown, e.Err)
	if e.Hint != "" {
		msg += ": " + e.Hint
	}
	return msg
}

func (e *NameError) Unwrap() error { return e.Err }

const hintRelative = "name a folder relative to the workspace root, such as \"project-a\""

// Root is the folder every workspace lives under.
type Root struct {
	dir string // absolute, symbolic links resolved
}

// NewRoot opens dir as the workspace root, creating it if missing.
func NewRoot(dir string) (*Root, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", dir, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", dir, err)
	}
	return &Root{dir: real}, nil
}

// Dir is the root's absolute path.
func (r *Root) Dir() string { return r.dir }

// Workspace resolves a workspace name to its folder: empty or "." is the root itself,
// anything else a relative path under it. With create, a missing folder is made;
// without, it is ErrNotExist.
func (r *Root) Workspace(name string, create bool) (string, error) {
	p, err := r.Path(name)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(p)
	switch {
	case err == nil && !info.IsDir():
		return "", &NameError{Input: name, Err: ErrNotDir, Hint: "a workspace is a folder; this is a file"}
	case err == nil:
		return p, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("workspace %q: %w", name, err)
	case !create:
		return "", &NameError{Input: name, Err: ErrNotExist, Hint: "create it first or ask for it to be created"}
	}
	// os.Root refuses to follow a link out of the root at every step, so a link
	// planted between the check above and this call cannot redirect the creation.
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return "", fmt.Errorf("open workspace root: %w", err)
	}
	defer root.Close()
	rel, _ := filepath.Rel(r.dir, p)
	if err := root.MkdirAll(rel, 0o755); err != nil {
		if _, perr := r.Path(name); perr != nil {
			return "", perr // a link appeared meanwhile: say so, not "path escapes"
		}
		return "", fmt.Errorf("create workspace %q: %w", name, err)
	}
	return r.Path(name) // checked again: the folder now exists
}

// Path resolves a path under the root, for a workspace or a file in one. The path
// need not exist; what exists of it must not leave the root through a link.
func (r *Root) Path(name string) (string, error) {
	if err := checkName(name); err != nil {
		return "", err
	}
	clean := filepath.Clean("/" + name)[1:] // checkName ruled out "..": this only tidies
	p := filepath.Join(r.dir, clean)
	real, err := resolveExisting(p)
	if errors.Is(err, syscall.ENOTDIR) {
		return "", &NameError{Input: name, Err: ErrNotDir, Hint: "a file stands where the path needs a folder"}
	}
	if err != nil {
		return "", fmt.Errorf("workspace path %q: %w", name, err)
	}
	if !within(r.dir, real) {
		return "", &NameError{Input: name, Err: ErrEscape, Hint: hintRelative}
	}
	return p, nil
}

func checkName(name string) error {
	if len(name) > MaxPathBytes {
		return &NameError{Input: name, Err: ErrTooLong,
			Hint: fmt.Sprintf("it is %d bytes; a path may have at most %d", len(name), MaxPathBytes)}
	}
	for seg := range strings.SplitSeq(name, "/") {
		if len(seg) > MaxComponentBytes {
			return &NameError{Input: name, Err: ErrTooLong,
				Hint: fmt.Sprintf("one of its names is %d bytes; a file or folder name may have at most %d", len(seg), MaxComponentBytes)}
		}
	}
	switch {
	case strings.ContainsRune(name, 0):
		return &NameError{Input: name, Err: ErrInvalid, Hint: "remove the NUL byte"}
	case strings.Contains(name, `\`):
		return &NameError{Input: name, Err: ErrInvalid, Hint: `separate folders with "/", not "\"`}
	case filepath.IsAbs(name):
		return &NameError{Input: name, Err: ErrAbsolute, Hint: hintRelative}
	}
	for seg := range strings.SplitSeq(name, "/") {
		if seg == ".." {
			return &NameError{Input: name, Err: ErrTraversal, Hint: hintRelative}
		}
	}
	return nil
}

// resolveExisting follows the links of the longest existing prefix of p and appends
// the part that does not exist yet.
func resolveExisting(p string) (string, error) {
	rest := ""
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		// A dangling link counts as an escape if its target would be: resolve it by hand.
		if target, lerr := os.Readlink(p); lerr == nil {
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(p), target)
			}
			return resolveExisting(filepath.Join(target, rest))
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest), nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}
