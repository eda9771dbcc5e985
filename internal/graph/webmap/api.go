package webmap

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/graph/changes"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

func (m *Map) indexPath() (string, error) {
	if m.opt.IndexPath != "" {
		return m.opt.IndexPath, nil
	}
	return agenttool.DefaultIndexPath(m.opt.Root, false)
}

// statusAnswer tells the page whether there is a map to draw, and if not, why
// and what to do.
type statusAnswer struct {
	Root     string `json:"root"`
	Indexed  bool   `json:"indexed"`
	Building bool   `json:"building"`
	CanBuild bool   `json:"can_build"`
	// How is the command that builds the index, for a page without a button.
	How        string `json:"how,omitempty"`
	BuildError string `json:"build_error,omitempty"`
	Error      string `json:"error,omitempty"`
}

func (m *Map) status(w http.ResponseWriter, r *http.Request) {
	a := statusAnswer{Root: m.opt.Root, CanBuild: m.opt.Build != nil, How: "albert-code graph index " + m.opt.Root}
	m.mu.Lock()
	a.Building, a.BuildError = m.building, m.buildErr
	m.mu.Unlock()
	if !a.Building {
		_, err := m.openStore()
		switch {
		case err == nil:
			a.Indexed = true
		case errors.Is(err, store.ErrNoIndex):
		default:
			a.Error = err.Error()
		}
	}
	writeJSON(w, http.StatusOK, a)
}

// withStore answers a data request, or says why there is no data: no index yet
// (409, with the command), a build in progress (503).
func (m *Map) withStore(w http.ResponseWriter, fn func(*store.Store)) {
	st, err := m.openStore()
	switch {
	case err == nil:
		fn(st)
	case errors.Is(err, store.ErrNoIndex):
		writeError(w, http.StatusConflict, m.opt.Root+" has no index yet: run "+m.indexCommand()+" or press the button", nil)
	case errors.Is(err, errBuilding):
		writeError(w, http.StatusServiceUnavailable, "the index is being built; the map appears when it is done", nil)
	default:
		writeError(w, http.StatusInternalServerError, "open the index of "+m.opt.Root+": "+err.Error(), nil)
	}
}

func (m *Map) overview(w http.ResponseWriter, r *http.Request) {
	m.withStore(w, func(st *store.Store) {
		ov, err := loadOverview(r.Context(), st, m.opt.MaxSymbols, m.opt.MaxCommunities)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "communities: "+err.Error(), nil)
			return
		}
		writeJSON(w, http.StatusOK, ov)
	})
}

func (m *Map) community(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil || id < 0 {
		writeError(w, http.StatusBadRequest, "community "+strconv.Quote(r.PathValue("id"))+": want a community number from the map", nil)
		return
	}
	m.withStore(w, func(st *store.Store) {
		c, err := loadCommunity(r.Context(), st, id, m.opt.MaxSymbols)
		if errors.Is(err, errNoCommunity) {
			writeError(w, http.StatusNotFound, err.Error(), nil)
			return
		}
		if err != nil {
			writeError(w, http.StatusInternalServerError, "community: "+err.Error(), nil)
			return
		}
		writeJSON(w, http.StatusOK, c)
	})
}

// neighbourhood is a symbol's callers, callees and implementations.
type neighbourhood struct {
	Symbol          string       `json:"symbol"`
	Targets         []query.Item `json:"targets"`
	Callers         []query.Item `json:"callers"`
	Callees         []query.Item `json:"callees"`
	Implementations []query.Item `json:"implementations"`
	// Certainty is the weakest of the three answers' (exact or lower-bound).
	Certainty string   `json:"certainty"`
	Why       []string `json:"why"`
}

func (m *Map) symbol(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.URL.Query().Get("name"))
	if name == "" {
		writeError(w, http.StatusBadRequest, "no symbol: type a name (Parse) or a qualified name (pkg.Type.Method)", nil)
		return
	}
	m.withStore(w, func(st *store.Store) {
		n := neighbourhood{Symbol: name, Certainty: query.Exact, Callers: []query.Item{}, Callees: []query.Item{}, Implementations: []query.Item{}}
		for _, kind := range []string{"callers", "callees", "implementations"} {
			a, err := query.Ask(r.Context(), st, kind, name)
			var unknown *query.UnknownSymbolError
			if errors.As(err, &unknown) {
				writeError(w, http.StatusNotFound, unknown.Error(), unknown.DidYouMean)
				return
			}
			if err != nil {
				writeError(w, http.StatusInternalServerError, kind+" of "+name+": "+err.Error(), nil)
				return
			}
			n.Targets = a.Targets
			if a.Certainty != query.Exact {
				n.Certainty = a.Certainty
			}
			n.Why = append(n.Why, kind+": "+a.Why)
			switch kind {
			case "callers":
				n.Callers = append(n.Callers, a.Items...)
			case "callees":
				n.Callees = append(n.Callees, a.Items...)
			default:
				n.Implementations = append(n.Implementations, a.Items...)
			}
		}
		writeJSON(w, http.StatusOK, n)
	})
}

// searchLimit is the number of names the search box proposes.
const searchLimit = 12

func (m *Map) search(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if q == "" {
		writeJSON(w, http.StatusOK, map[string]any{"hits": []store.Hit{}})
		return
	}
	m.withStore(w, func(st *store.Store) {
		hits, err := st.Search(r.Context(), q, searchLimit)
		if err != nil {
			writeError(w, http.StatusBadRequest, "search "+strconv.Quote(q)+": "+err.Error(), nil)
			return
		}
		if hits == nil {
			hits = []store.Hit{}
		}
		writeJSON(w, http.StatusOK, map[string]any{"hits": hits})
	})
}

func (m *Map) changes(w http.ResponseWriter, r *http.Request) {
	m.withStore(w, func(st *store.Store) {
		hunks, err := changes.Diff(r.Context(), m.opt.Root, "")
		if err != nil {
			writeError(w, http.StatusUnprocessableEntity, "the working tree's changes: "+err.Error(), nil)
			return
		}
		rep, err := changes.Map(r.Context(), st, "HEAD", hunks)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "map the changes: "+err.Error(), nil)
			return
		}
		writeJSON(w, http.StatusOK, rep)
	})
}

// apiError is every error the API returns: what went wrong and what to do.
type apiError struct {
	Error      string   `json:"error"`
	DidYouMean []string `json:"did_you_mean,omitempty"`
}

func writeError(w http.ResponseWriter, code int, msg string, suggestions []string) {
	writeJSON(w, code, apiError{Error: msg, DidYouMean: suggestions})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
