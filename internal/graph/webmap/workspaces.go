package webmap

import (
	"net/http"
	"strings"
	"sync"
)

// Workspaces serves the map of each workspace of a server under /NAME/ (serve's
// console mounts it at /ui/map/, behind its own login). A map is made on a
// workspace's first visit and kept.
type Workspaces struct {
	resolve func(name string) (root string, err error)
	opt     Options

	mu   sync.Mutex
	maps map[string]*Map
}

// NewWorkspaces returns the maps of the workspaces resolve names; opt is each
// map's options, its Root set per workspace. resolve's error is shown to the
// user, so it should say what is wrong with the name.
func NewWorkspaces(resolve func(name string) (root string, err error), opt Options) *Workspaces {
	return &Workspaces{resolve: resolve, opt: opt, maps: map[string]*Map{}}
}

// ServeHTTP serves /NAME/… from the map of workspace NAME.
func (ws *Workspaces) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, rest, slash := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if name == "" {
		deny404(w, "name a workspace: …/map/NAME/")
		return
	}
	if !slash {
		// The page's links are relative: its address must end with a slash. A
		// relative Location keeps whatever prefix the handler is mounted under.
		w.Header().Set("Location", name+"/")
		w.WriteHeader(http.StatusSeeOther)
		return
	}
	m, err := ws.mapOf(name)
	if err != nil {
		deny404(w, err.Error())
		return
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/" + rest
	r2.URL.RawPath = ""
	m.ServeHTTP(w, r2)
}

func (ws *Workspaces) mapOf(name string) (*Map, error) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if m, ok := ws.maps[name]; ok {
		return m, nil
	}
	root, err := ws.resolve(name)
	if err != nil {
		return nil, err
	}
	opt := ws.opt
	opt.Root = root
	m, err := New(opt)
	if err != nil {
		return nil, err
	}
	ws.maps[name] = m
	return m, nil
}

// Close closes every workspace's map.
func (ws *Workspaces) Close() error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	var first error
	for name, m := range ws.maps {
		if err := m.Close(); err != nil && first == nil {
			first = err
		}
		delete(ws.maps, name)
	}
	return first
}

func deny404(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte("code graph map: " + msg + "\n"))
}
