package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Item is one result. Unlike query.Item it always carries file and line (empty
// and 0 for a definition outside the repository), so an agent can rely on them.
type Item struct {
	QName    string `json:"qualified_name"`
	Kind     string `json:"kind"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	SiteFile string `json:"site_file,omitempty"`
	SiteLine int    `json:"site_line,omitempty"`
	// MoreSites are the lines of the item's other sites in the same file (a
	// function calling the symbol three times is one caller, not three).
	MoreSites  []int   `json:"more_sites,omitempty"`
	Relation   string  `json:"relation,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	Resolution string  `json:"resolution,omitempty"`
	// Hop and Via (impact): how many edges away, and through which node; Why
	// when the edge alone does not explain the item (interface dispatch).
	Hop int    `json:"hop,omitempty"`
	Via string `json:"via,omitempty"`
	Why string `json:"why,omitempty"`
}

// questionRelation is the edge kind a question's items have unless they say
// otherwise (an item's relation is written only when it differs).
var questionRelation = map[string]string{
	"callers": "calls", "callees": "calls", "references": "references", "implementations": "implements",
}

// items converts answers' items, leaving out what repeats what the item or the
// answer already says, since an agent pays for every character it reads:
//   - the site's file when it is the item's own (a caller's call is in the
//     caller's file), and the site's line when the site is the definition itself
//     (a type's implements clause);
//   - confidence and resolution when the type checker drew the edge (the
//     answer's certainty says exact);
//   - the relation when it is relation, the question's own;
//   - an item that only repeats the previous one at another line: its line joins
//     the previous item's more_sites (the answers list one item per site, sorted).
func items(in []query.Item, relation string) []Item {
	out := make([]Item, 0, len(in))
	for _, it := range in {
		c := Item{QName: it.QName, Kind: it.Kind, File: it.File, Line: it.Line, SiteFile: it.SiteFile,
			SiteLine: it.SiteLine, Relation: it.Relation, Confidence: it.Confidence, Resolution: it.Resolution,
			Hop: it.Hop, Via: it.Via, Why: it.Why}
		if c.SiteFile == c.File {
			c.SiteFile = ""
			if c.SiteLine == c.Line {
				c.SiteLine = 0
			}
		}
		if c.Resolution == "types" && c.Confidence == 1 {
			c.Confidence, c.Resolution = 0, ""
		}
		if c.Relation == relation {
			c.Relation = ""
		}
		if n := len(out); n > 0 && c.SiteLine != 0 && sameButSite(out[n-1], c) {
			out[n-1].MoreSites = append(out[n-1].MoreSites, c.SiteLine)
			continue
		}
		out = append(out, c)
	}
	return out
}

// sameButSite reports whether a and b differ at most in their site lines.
func sameButSite(a, b Item) bool {
	a.SiteLine, b.SiteLine, a.MoreSites, b.MoreSites = 0, 0, nil, nil
	return a.QName == b.QName && a.Kind == b.Kind && a.File == b.File && a.Line == b.Line &&
		a.SiteFile == b.SiteFile && a.Relation == b.Relation && a.Confidence == b.Confidence &&
		a.Resolution == b.Resolution && a.Hop == b.Hop && a.Via == b.Via && a.Why == b.Why
}

// dirtyCap bounds the changed files a freshness block lists; dirty_count has them all.
// Judgement: enough to recognise one's own edits, small next to the budget.
const dirtyCap = 20

// Freshness says how far the index is from the tree (see index.Freshness).
type Freshness struct {
	Status        string   `json:"status"` // fresh, stale or unknown
	IndexedCommit string   `json:"indexed_commit,omitempty"`
	Head          string   `json:"head,omitempty"`
	IndexedAt     string   `json:"indexed_at,omitempty"`
	Dirty         []string `json:"dirty,omitempty"`
	DirtyCount    int      `json:"dirty_count"`
	Error         string   `json:"error,omitempty"`
}

func (h *handler) freshness(ctx context.Context, st *store.Store) *Freshness {
	var f index.Freshness
	var err error
	if l := h.keptNow(); l != nil {
		f = l.Freshness() // the watcher vouches: no walk
	} else {
		f, err = index.CheckFreshness(ctx, h.cfg.Root, st, h.cfg.Index.Limits)
	}
	if err != nil {
		return &Freshness{Status: "unknown", Error: err.Error()}
	}
	out := &Freshness{Status: f.Status, IndexedCommit: f.IndexedCommit, Head: f.Head, IndexedAt: f.IndexedAt,
		Dirty: f.Dirty, DirtyCount: len(f.Dirty)}
	if out.Status == "fresh" {
		out.IndexedAt = "" // when it was indexed matters only once the tree moved on
	}
	if len(out.Dirty) > dirtyCap {
		out.Dirty = out.Dirty[:dirtyCap]
	}
	return out
}

// errNoIndex tells the agent what to do when the repository was never indexed.
var errNoIndex = errors.New("this repository has no index yet: call analyze_codebase first")

// open opens the existing index read-only; a long-lived server lends its kept
// index, brought up to date (see Config.Lifetime).
func (h *handler) open() (*store.Store, error) {
	if h.cfg.Lifetime != nil {
		return h.openKept()
	}
	path, err := h.cfg.IndexPath(false)
	if err != nil {
		return nil, err
	}
	st, err := store.OpenReadOnly(path)
	if errors.Is(err, store.ErrNoIndex) {
		return nil, errNoIndex
	}
	if err != nil {
		return nil, fmt.Errorf("open the index: %w (analyze_codebase rebuilds what it can)", err)
	}
	return st, nil
}

// UnknownSymbol is the answer for a symbol no definition matches.
type UnknownSymbol struct {
	Error      string   `json:"error"`
	Symbol     string   `json:"symbol"`
	DidYouMean []string `json:"did_you_mean"`
}

func unknownSymbol(e *query.UnknownSymbolError) UnknownSymbol {
	dym := e.DidYouMean
	if dym == nil {
		dym = []string{}
	}
	return UnknownSymbol{Error: e.Error(), Symbol: e.Symbol, DidYouMean: dym}
}
