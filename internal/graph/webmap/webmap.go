// Package webmap serves a browser map of a repository's code graph: its
// communities, a symbol's callers, callees and implementations, and the working
// tree's changes with their risk. The page and its drawing library are embedded,
// so the map works offline; the data comes from the graph store and its queries.
package webmap

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"sync"

	"github.com/etalab-ia/albert-code/internal/graph/store"
)

//go:embed web/index.html web/map.js web/map.css web/vendor/cytoscape.min.js web/vendor/cytoscape.LICENSE
var assets embed.FS

// DefaultMaxSymbols is the largest graph drawn symbol by symbol; above it the map
// shows communities only. A judgement: cytoscape's force layout on a laptop stays
// under a few seconds up to about this many nodes.
const DefaultMaxSymbols = 2000

// DefaultMaxCommunities caps the communities drawn on an aggregated map (the
// largest first); the rest are counted on the page. Judgement, as above.
const DefaultMaxCommunities = 400

// Options say where the map reads its index and how it builds one.
type Options struct {
	// Root is the repository (or workspace) the index describes; the changes view
	// runs git diff there.
	Root string
	// IndexPath is the graph database; empty means the default for Root.
	IndexPath string
	// Build indexes Root into IndexPath (the page's "build the index" button);
	// nil leaves the page telling the command to run instead.
	Build func(ctx context.Context) error
	// MaxSymbols and MaxCommunities override DefaultMaxSymbols and
	// DefaultMaxCommunities when positive.
	MaxSymbols, MaxCommunities int
}

// Map is the http.Handler of one repository's map. Mount it under any prefix
// with http.StripPrefix; its links are relative.
type Map struct {
	opt Options
	mux *http.ServeMux

	mu       sync.Mutex
	st       *store.Store // opened on first use, reopened after a build
	building bool
	buildErr string
	buildCtx context.Context
	stopping context.CancelFunc
	wg       sync.WaitGroup
}

// New returns the map of opt.Root. Close releases the index it opened.
func New(opt Options) (*Map, error) {
	if opt.Root == "" {
		return nil, errors.New("webmap: no repository root given")
	}
	if opt.MaxSymbols <= 0 {
		opt.MaxSymbols = DefaultMaxSymbols
	}
	if opt.MaxCommunities <= 0 {
		opt.MaxCommunities = DefaultMaxCommunities
	}
	m := &Map{opt: opt, mux: http.NewServeMux()}
	m.buildCtx, m.stopping = context.WithCancel(context.Background())
	web, err := fs.Sub(assets, "web")
	if err != nil {
		return nil, err
	}
	files := http.FileServerFS(web)
	m.mux.Handle("GET /{$}", files)
	m.mux.Handle("GET /map.js", files)
	m.mux.Handle("GET /map.css", files)
	m.mux.Handle("GET /vendor/", files)
	m.mux.HandleFunc("GET /api/status", m.status)
	m.mux.HandleFunc("POST /api/index", m.startBuild)
	m.mux.HandleFunc("GET /api/map", m.overview)
	m.mux.HandleFunc("GET /api/community/{id}", m.community)
	m.mux.HandleFunc("GET /api/symbol", m.symbol)
	m.mux.HandleFunc("GET /api/search", m.search)
	m.mux.HandleFunc("GET /api/changes", m.changes)
	return m, nil
}

// contentSecurityPolicy allows only the map's own files and its own API: no
// CDN, no inline script or style, no framing. Cytoscape's one injected <style>
// is pre-empted by index.html (see map.css); the styles it sets from script go
// through the CSSOM, which style-src does not govern.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// ServeHTTP serves the page, its files and its JSON API, with the security headers.
func (m *Map) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	m.mux.ServeHTTP(w, r)
}

// Close stops a build in progress and closes the index.
func (m *Map) Close() error {
	m.stopping()
	m.wg.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.st == nil {
		return nil
	}
	err := m.st.Close()
	m.st = nil
	return err
}

// errBuilding: the index is being built; the page waits for it.
var errBuilding = errors.New("the index is being built")

// openStore returns the open index, opening it on first use. ErrNoIndex when
// there is none yet.
func (m *Map) openStore() (*store.Store, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.building {
		return nil, errBuilding
	}
	if m.st != nil {
		return m.st.Lend(), nil
	}
	path, err := m.indexPath()
	if err != nil {
		return nil, err
	}
	st, err := store.OpenReadOnly(path)
	if err != nil {
		return nil, err
	}
	m.st = st
	return st.Lend(), nil
}

// startBuild runs Options.Build in the background; the page polls /api/status.
func (m *Map) startBuild(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get(requestHeader) == "" {
		// A form on another site cannot set a custom header without a CORS
		// preflight, which this server never grants.
		writeError(w, http.StatusForbidden, "a build is started from the map's own button (missing the "+requestHeader+" header)", nil)
		return
	}
	if m.opt.Build == nil {
		writeError(w, http.StatusNotImplemented, "this server cannot build the index: run "+m.indexCommand(), nil)
		return
	}
	m.mu.Lock()
	if m.building {
		m.mu.Unlock()
		writeJSON(w, http.StatusAccepted, map[string]any{"building": true})
		return
	}
	m.building, m.buildErr = true, ""
	if m.st != nil {
		_ = m.st.Close() // read-only: nothing to lose; reopened when the build ends
		m.st = nil
	}
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		err := m.opt.Build(m.buildCtx)
		m.mu.Lock()
		defer m.mu.Unlock()
		m.building = false
		if err != nil {
			m.buildErr = err.Error()
		}
	}()
	writeJSON(w, http.StatusAccepted, map[string]any{"building": true})
}

// requestHeader marks the page's own state-changing requests.
const requestHeader = "X-Albert-Map"

func (m *Map) indexCommand() string {
	return fmt.Sprintf("`albert-code graph index %s`", m.opt.Root)
}
