package api

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// The /files endpoints read and write under the workspace root through
// workspace.Root.Rel (a NameError, naming the fault, is a 400) and the os.Root
// operations of the workspace package.

type listing struct {
	Path    string            `json:"path"`
	Entries []workspace.Entry `json:"entries"`
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
	rel, err := s.opts.Root.Rel(p)
	if err != nil {
		status := http.StatusInternalServerError
		var ne *workspace.NameError
		if errors.As(err, &ne) {
			status = http.StatusBadRequest
		}
		writeJSON(w, status, errorBody{Field: "path", Detail: err.Error()})
		return "", false
	}
	return rel, true
}

// inRoot checks the request's path and opens the workspace root for one request;
// on a refusal or failure it has answered. The caller closes the root.
func (s *Server) inRoot(w http.ResponseWriter, r *http.Request, required bool) (string, *os.Root, bool) {
	rel, ok := s.filePath(w, r, required)
	if !ok {
		return "", nil, false
	}
	root, err := s.opts.Root.OpenFS()
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return "", nil, false
	}
	return rel, root, true
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
	rel, root, ok := s.inRoot(w, r, false)
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
	entries, err := workspace.List(root, rel)
	if err != nil {
		fsError(w, rel, err)
		return
	}
	writeJSON(w, http.StatusOK, listing{Path: "/" + strings.TrimPrefix(rel, "."), Entries: entries})
}

// putFile writes the body to a file, creating its folders. The body goes to a
// temporary file first and is renamed into place, so a reader never sees half a
// file and a body past the limit leaves the old file intact.
func (s *Server) putFile(w http.ResponseWriter, r *http.Request) {
	rel, root, ok := s.inRoot(w, r, true)
	if !ok {
		return
	}
	defer root.Close()
	n, err := workspace.Write(root, rel, http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
	var tooBig *http.MaxBytesError
	var slow *BodyTimeoutError
	switch {
	case errors.Is(err, workspace.ErrFolder):
		writeJSON(w, http.StatusBadRequest, errorBody{Field: "path", Detail: rel + " is a directory: name a file"})
	case errors.As(err, &tooBig), errors.As(err, &slow):
		writeBodyError(w, err)
	case err != nil:
		fsError(w, rel, err)
	default:
		writeJSON(w, http.StatusOK, fileDone{Status: "ok", Path: rel, Size: n})
	}
}

// deleteFile removes a file or a link; folders are refused.
func (s *Server) deleteFile(w http.ResponseWriter, r *http.Request) {
	rel, root, ok := s.inRoot(w, r, true)
	if !ok {
		return
	}
	defer root.Close()
	switch err := workspace.Delete(root, rel); {
	case errors.Is(err, workspace.ErrFolder):
		writeJSON(w, http.StatusBadRequest, errorBody{Field: "path", Detail: "cannot delete directories: " + rel + " is one; delete its files"})
	case err != nil:
		fsError(w, rel, err)
	default:
		writeJSON(w, http.StatusOK, fileDone{Status: "ok", Path: rel})
	}
}
