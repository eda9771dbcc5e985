package api

import (
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// The /files endpoints read and write under the workspace root. Every path is
// checked twice: by workspace.Root.Path, which names the fault (an absolute path,
// "..", a link leading out) for a 400; then the I/O itself goes through os.Root,
// which refuses to leave the root at every step, so a link planted between the
// check and the use cannot redirect it.

type fileEntry struct {
	Name string `json:"name"`
	Type string `json:"type"` // file, dir or link
	Size int64  `json:"size,omitempty"`
}

type listing struct {
	Path    string      `json:"path"`
	Entries []fileEntry `json:"entries"`
}

type fileDone struct {
	Status string `json:"status"`
	Path   string `json:"path"`
	Size   int64  `json:"size,omitempty"`
}

// filePath checks the request's path and returns it relative to the root ("." for
// the root itself); on a refusal it has answered.
func (s *Server) filePath(w http.ResponseWriter, r *http.Request, required bool) (string, bool) {
	p := r.PathValue("path")
	if required && strings.Trim(p, "/") == "" {
		writeJSON(w, http.StatusBadRequest, errorBody{Field: "path", Detail: "a file path is required after /files/"})
		return "", false
	}
	if _, err := s.opts.Root.Path(p); err != nil {
		status := http.StatusInternalServerError
		var ne *workspace.NameError
		if errors.As(err, &ne) {
			status = http.StatusBadRequest
		}
		writeJSON(w, status, errorBody{Field: "path", Detail: err.Error()})
		return "", false
	}
	rel := path.Clean("/" + p)[1:]
	if rel == "" {
		rel = "."
	}
	return rel, true
}

// openRoot opens the workspace root for one request; on failure it has answered.
func (s *Server) openRoot(w http.ResponseWriter) (*os.Root, bool) {
	root, err := os.OpenRoot(s.opts.Root.Dir())
	if err != nil {
		writeError(w, http.StatusInternalServerError, "open the workspace root: "+err.Error())
		return nil, false
	}
	return root, true
}

// fsError answers a failed file operation on rel.
func fsError(w http.ResponseWriter, rel string, err error) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		writeError(w, http.StatusNotFound, "not found: "+rel)
	case errors.Is(err, fs.ErrPermission):
		writeError(w, http.StatusInternalServerError, err.Error())
	default:
		// os.Root's refusals (a path escaping the root) land here.
		writeJSON(w, http.StatusBadRequest, errorBody{Field: "path", Detail: err.Error()})
	}
}

// getFile lists a folder as JSON or sends a file's bytes (ranges and conditional
// requests included).
func (s *Server) getFile(w http.ResponseWriter, r *http.Request) {
	rel, ok := s.filePath(w, r, false)
	if !ok {
		return
	}
	root, ok := s.openRoot(w)
	if !ok {
		return
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		fsError(w, rel, err)
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		fsError(w, rel, err)
		return
	}
	if !info.IsDir() {
		http.ServeContent(w, r, info.Name(), info.ModTime(), f)
		return
	}
	dirents, err := f.ReadDir(-1)
	if err != nil {
		fsError(w, rel, err)
		return
	}
	out := listing{Path: "/" + strings.TrimPrefix(rel, "."), Entries: []fileEntry{}}
	for _, d := range dirents {
		e := fileEntry{Name: d.Name(), Type: "file"}
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
		out.Entries = append(out.Entries, e)
	}
	slices.SortFunc(out.Entries, func(a, b fileEntry) int { return strings.Compare(a.Name, b.Name) })
	writeJSON(w, http.StatusOK, out)
}

// putFile writes the body to a file, creating its folders. The body goes to a
// temporary file first and is renamed into place, so a reader never sees half a
// file and a body past the limit leaves the old file intact.
func (s *Server) putFile(w http.ResponseWriter, r *http.Request) {
	rel, ok := s.filePath(w, r, true)
	if !ok {
		return
	}
	root, ok := s.openRoot(w)
	if !ok {
		return
	}
	defer root.Close()
	if info, err := root.Stat(rel); err == nil && info.IsDir() {
		writeJSON(w, http.StatusBadRequest, errorBody{Field: "path", Detail: rel + " is a directory: name a file"})
		return
	}
	if err := root.MkdirAll(path.Dir(rel), 0o755); err != nil {
		fsError(w, rel, err)
		return
	}
	tmp := path.Join(path.Dir(rel), ".albert-code-upload-"+newRunID())
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		fsError(w, rel, err)
		return
	}
	n, err := io.Copy(f, http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, rel)
	}
	if err != nil {
		_ = root.Remove(tmp)
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeBodyError(w, err)
			return
		}
		fsError(w, rel, err)
		return
	}
	writeJSON(w, http.StatusOK, fileDone{Status: "ok", Path: rel, Size: n})
}

// deleteFile removes a file or a link; folders are refused.
func (s *Server) deleteFile(w http.ResponseWriter, r *http.Request) {
	rel, ok := s.filePath(w, r, true)
	if !ok {
		return
	}
	root, ok := s.openRoot(w)
	if !ok {
		return
	}
	defer root.Close()
	info, err := root.Lstat(rel)
	if err != nil {
		fsError(w, rel, err)
		return
	}
	if info.IsDir() {
		writeJSON(w, http.StatusBadRequest, errorBody{Field: "path", Detail: "cannot delete directories: " + rel + " is one; delete its files"})
		return
	}
	if err := root.Remove(rel); err != nil {
		fsError(w, rel, err)
		return
	}
	writeJSON(w, http.StatusOK, fileDone{Status: "ok", Path: rel})
}
