package webmap

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// cluster is one community as the map draws it.
type cluster struct {
	ID   int      `json:"id"`
	Name string   `json:"name"`
	Size int      `json:"size"`
	Dirs []string `json:"dirs"`
}

// link counts the calls from one community's symbols into another's.
type link struct {
	From  int `json:"from"`
	To    int `json:"to"`
	Calls int `json:"calls"`
}

// member is one symbol drawn on the map.
type member struct {
	QName     string `json:"qualified_name"`
	Label     string `json:"label"`
	Kind      string `json:"kind"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Community int    `json:"community"`
}

// call is one call edge between two drawn symbols.
type call struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// overviewAnswer is the home map: every community, drawn symbol by symbol when
// the graph is small enough, as one node each otherwise.
type overviewAnswer struct {
	// Mode is "symbols" (members drawn inside their communities) or
	// "communities" (one node per community: the graph is too large).
	Mode        string    `json:"mode"`
	Note        string    `json:"note,omitempty"`
	Symbols     int       `json:"symbols"`
	Edges       int       `json:"edges"`
	Count       int       `json:"community_count"`
	Singletons  int       `json:"singletons"`
	Certainty   string    `json:"certainty"`
	Why         string    `json:"why"`
	Communities []cluster `json:"communities"`
	Links       []link    `json:"links"`
	Members     []member  `json:"members,omitempty"`
	Calls       []call    `json:"calls,omitempty"`
}

// partitionData is every community with all its members and the call edges,
// computed once per version of the index (store.Memo).
type partitionData struct {
	answer  *query.CommunitiesAnswer
	of      map[string]int // member → community
	members map[int][]member
	calls   []graph.Edge // between two members, self-calls left out
}

func loadPartition(ctx context.Context, st *store.Store) (*partitionData, error) {
	v, err := st.Memo(ctx, "webmap/partition", func() (any, error) {
		a, err := query.Communities(ctx, st, "", query.CommunityOptions{Limit: math.MaxInt32, Members: math.MaxInt32})
		if err != nil {
			return nil, err
		}
		d := &partitionData{answer: a, of: map[string]int{}, members: map[int][]member{}}
		for _, c := range a.Communities {
			for _, it := range c.Members {
				d.of[it.QName] = c.ID
				d.members[c.ID] = append(d.members[c.ID], member{QName: it.QName, Label: label(it.QName),
					Kind: it.Kind, File: it.File, Line: it.Line, Community: c.ID})
			}
		}
		edges, err := st.AllEdges(ctx, graph.EdgeCalls)
		if err != nil {
			return nil, err
		}
		for _, e := range edges {
			_, okFrom := d.of[e.From]
			_, okTo := d.of[e.To]
			if okFrom && okTo && e.From != e.To {
				d.calls = append(d.calls, e)
			}
		}
		return d, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*partitionData), nil
}

// label is what a symbol is called on the map: its qualified name after the
// last slash (pkg.Type.Method), short enough to read at a glance.
func label(qname string) string {
	return qname[strings.LastIndex(qname, "/")+1:]
}

func loadOverview(ctx context.Context, st *store.Store, maxSymbols, maxCommunities int) (*overviewAnswer, error) {
	d, err := loadPartition(ctx, st)
	if err != nil {
		return nil, err
	}
	a := d.answer
	ov := &overviewAnswer{Mode: "symbols", Symbols: a.Nodes, Edges: a.Edges, Count: a.Count, Singletons: a.Singletons,
		Certainty: a.Certainty, Why: a.Why, Communities: []cluster{}, Links: []link{}}
	drawn := a.Nodes - a.Singletons
	shown := map[int]bool{}
	for _, c := range a.Communities {
		if drawn > maxSymbols && len(ov.Communities) >= maxCommunities {
			break
		}
		cl := cluster{ID: c.ID, Name: c.Name, Size: c.Size, Dirs: []string{}}
		for _, dc := range c.Directories {
			cl.Dirs = append(cl.Dirs, dc.Dir)
		}
		ov.Communities = append(ov.Communities, cl)
		shown[c.ID] = true
	}
	counts := map[[2]int]int{}
	for _, e := range d.calls {
		from, to := d.of[e.From], d.of[e.To]
		if from != to && shown[from] && shown[to] {
			counts[[2]int{from, to}]++
		}
	}
	for k, n := range counts {
		ov.Links = append(ov.Links, link{From: k[0], To: k[1], Calls: n})
	}
	sortLinks(ov.Links)
	if drawn > maxSymbols {
		ov.Mode = "communities"
		ov.Note = fmt.Sprintf("%d symbols in %d communities: more than %d to draw one by one, so the map shows each community as one node, sized by its members",
			drawn, a.Count, maxSymbols)
		if len(ov.Communities) < a.Count {
			ov.Note += fmt.Sprintf(" (the %d largest; %d smaller communities are not drawn)", len(ov.Communities), a.Count-len(ov.Communities))
		}
		ov.Note += ". Click a community to open its members."
		return ov, nil
	}
	ov.Members = []member{}
	for _, c := range ov.Communities {
		ov.Members = append(ov.Members, d.members[c.ID]...)
	}
	ov.Calls = dedupCalls(d.calls, func(graph.Edge) bool { return true })
	if a.Singletons > 0 {
		ov.Note = fmt.Sprintf("%d symbols connected to nothing they could join are not drawn", a.Singletons)
	}
	return ov, nil
}

// communityAnswer is one community's members and the calls between them.
type communityAnswer struct {
	cluster
	Members []member `json:"members"`
	Calls   []call   `json:"calls"`
	Note    string   `json:"note,omitempty"`
}

var errNoCommunity = errors.New("no such community")

func loadCommunity(ctx context.Context, st *store.Store, id, maxSymbols int) (*communityAnswer, error) {
	d, err := loadPartition(ctx, st)
	if err != nil {
		return nil, err
	}
	for _, c := range d.answer.Communities {
		if c.ID != id {
			continue
		}
		ca := &communityAnswer{cluster: cluster{ID: c.ID, Name: c.Name, Size: c.Size, Dirs: []string{}}}
		for _, dc := range c.Directories {
			ca.Dirs = append(ca.Dirs, dc.Dir)
		}
		ca.Members = d.members[id]
		if len(ca.Members) > maxSymbols {
			ca.Members = ca.Members[:maxSymbols] // the most connected first
			ca.Note = fmt.Sprintf("the %d most connected of %d members are drawn", maxSymbols, c.Size)
		}
		in := map[string]bool{}
		for _, mb := range ca.Members {
			in[mb.QName] = true
		}
		ca.Calls = dedupCalls(d.calls, func(e graph.Edge) bool { return in[e.From] && in[e.To] })
		return ca, nil
	}
	return nil, fmt.Errorf("community %d: %w (the index may have changed: reload the map)", id, errNoCommunity)
}

// dedupCalls keeps one call per ordered pair of symbols.
func dedupCalls(edges []graph.Edge, keep func(graph.Edge) bool) []call {
	seen := map[call]bool{}
	out := []call{}
	for _, e := range edges {
		c := call{From: e.From, To: e.To}
		if seen[c] || !keep(e) {
			continue
		}
		seen[c] = true
		out = append(out, c)
	}
	return out
}

func sortLinks(ls []link) {
	// Deterministic order: the heaviest first, then by ends.
	slices.SortFunc(ls, func(a, b link) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
}
