package console

import (
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// crumb is one link of the path above a listing.
type crumb struct{ Name, Path string }

// filesPage lists a folder under the workspace root or downloads a file. It
// keeps the API's /files rules (workspace.Root.Rel refuses names that escape,
// os.Root refuses paths that leave the root) and refuses symbolic links on the
// way, so a link in a workspace cannot hand out a file it points to.
func (c *Console) filesPage(w http.ResponseWriter, r *http.Request) {
	p := r.PathValue("path")
	rel, err := c.opts.Root.Rel(p)
	if err != nil {
		var ne *workspace.NameError
		if errors.As(err, &ne) {
			c.errorPage(w, r, http.StatusBadRequest, "Bad path", err.Error())
			return
		}
		c.errorPage(w, r, http.StatusInternalServerError, "The workspace root could not be read", err.Error())
		return
	}
	root, err := c.opts.Root.OpenFS()
	if err != nil {
		c.errorPage(w, r, http.StatusInternalServerError, "The workspace root could not be read", err.Error())
		return
	}
	defer root.Close()
	if link := firstLink(root, rel); link != "" {
		c.errorPage(w, r, http.StatusForbidden, "Links are not followed", link+" is a symbolic link: the console shows only files and folders that are really in the workspace.")
		return
	}
	info, err := root.Stat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.errorPage(w, r, http.StatusNotFound, "No such file", "There is no file or folder "+rel+" under the workspace root.")
		return
	case err != nil:
		c.errorPage(w, r, http.StatusBadRequest, "Bad path", err.Error())
		return
	}
	if !info.IsDir() {
		c.download(w, r, root, rel, info)
		return
	}
	entries, err := workspace.List(root, rel)
	if err != nil {
		c.errorPage(w, r, http.StatusInternalServerError, "The folder could not be listed", err.Error())
		return
	}
	c.render(w, r, http.StatusOK, "files", map[string]any{"Path": rel, "Crumbs": crumbs(rel), "Entries": entries,
		"Base": strings.TrimSuffix("/ui/files/"+strings.TrimPrefix(rel, "."), "/") + "/"})
}

// firstLink names the first component of rel that is a symbolic link, or "".
func firstLink(root *os.Root, rel string) string {
	if rel == "." {
		return ""
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		sub := path.Join(parts[:i+1]...)
		if fi, err := root.Lstat(sub); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return sub
		}
	}
	return ""
}

func (c *Console) download(w http.ResponseWriter, r *http.Request, root *os.Root, rel string, info fs.FileInfo) {
	f, err := root.Open(rel)
	if err != nil {
		c.errorPage(w, r, http.StatusNotFound, "No such file", err.Error())
		return
	}
	defer f.Close()
	// Always an attachment: a workspace's HTML or SVG never runs in the console's origin.
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": info.Name()}))
	w.Header().Set("Content-Type", "application/octet-stream")
	http.ServeContent(w, r, info.Name(), info.ModTime(), f)
}

func crumbs(rel string) []crumb {
	out := []crumb{{Name: "root", Path: "/ui/files/"}}
	if rel == "." {
		return out
	}
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		out = append(out, crumb{Name: p, Path: "/ui/files/" + strings.Join(parts[:i+1], "/") + "/"})
	}
	return out
}
