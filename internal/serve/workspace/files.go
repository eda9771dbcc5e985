package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// File operations under the root, shared by the API's /files and the MCP file
// tools. Each path is checked twice: by Root.Path, whose NameError names the fault
// (an absolute path, "..", a link leading out); then the I/O goes through os.Root,
// which refuses to leave the root at every step, so a link planted between the
// check and the use cannot redirect it.

// ErrFolder is the error of a write or delete aimed at a folder.
var ErrFolder = errors.New("it is a folder")

// Entry is one item of a folder.
type Entry struct {
	Name string `json:"name"`
	Type string `json:"type" jsonschema:"file, dir or link"`
	Size int64  `json:"size,omitempty"`
}

// Rel checks p and returns it relative to the root ("." for the root itself).
func (r *Root) Rel(p string) (string, error) {
	if _, err := r.Path(p); err != nil {
		return "", err
	}
	rel := path.Clean("/" + p)[1:]
	if rel == "" {
		rel = "."
	}
	return rel, nil
}

// OpenFS opens the root for one operation; the caller closes it.
func (r *Root) OpenFS() (*os.Root, error) {
	root, err := os.OpenRoot(r.Dir())
	if err != nil {
		return nil, fmt.Errorf("open the workspace root: %w", err)
	}
	return root, nil
}

// List returns the entries of the folder rel, sorted by name.
func List(root *os.Root, rel string) ([]Entry, error) {
	f, err := root.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dirents, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := []Entry{}
	for _, d := range dirents {
		e := Entry{Name: d.Name(), Type: "file"}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			e.Type = "link"
		case d.IsDir():
			e.Type = "dir"
		default:
			if fi, err := d.Info(); err == nil {
				e.Size = fi.Size()
			}
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Write copies content to the file rel, creating its folders. It goes to a
// temporary file first, renamed into place, so a reader never sees half a file
// and a failed copy (a body past its limit) leaves the old file intact. A folder
// at rel is ErrFolder.
func Write(root *os.Root, rel string, content io.Reader) (int64, error) {
	if info, err := root.Stat(rel); err == nil && info.IsDir() {
		return 0, ErrFolder
	}
	if err := root.MkdirAll(path.Dir(rel), 0o755); err != nil {
		return 0, err
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	tmp := path.Join(path.Dir(rel), ".albert-code-upload-"+hex.EncodeToString(b[:]))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, rel)
	}
	if err != nil {
		_ = root.Remove(tmp)
		return 0, err
	}
	return n, nil
}

// Delete removes the file or link rel; a folder is ErrFolder.
func Delete(root *os.Root, rel string) error {
	info, err := root.Lstat(rel)
	if err != nil {
		return err
	}
	if info.IsDir() {
		return ErrFolder
	}
	return root.Remove(rel)
}
