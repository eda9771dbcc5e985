package query

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/community"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Edge weights for communities: what binds code together most. A type and its
// methods are one unit; a call binds more than a mention.
var communityWeights = map[graph.EdgeKind]float64{
	graph.EdgeContains:   5, // type → method (package and file containment is left out)
	graph.EdgeCalls:      3,
	graph.EdgeImplements: 2,
	graph.EdgeExtends:    2,
	graph.EdgeReferences: 1,
}

// memberKinds are the nodes communities are made of. Fields and enum variants are
// folded into their type; files and packages are containers, not members.
var memberKinds = map[graph.NodeKind]bool{
	graph.KindFunction: true, graph.KindMethod: true, graph.KindClass: true, graph.KindStruct: true,
	graph.KindInterface: true, graph.KindEnum: true, graph.KindTypeAlias: true, graph.KindType: true,
	graph.KindConstant: true, graph.KindVariable: true,
}

// CommunityOptions tune Communities; the zero value means the defaults.
type CommunityOptions struct {
	// Resolution is Louvain's γ (default 1): higher gives smaller communities.
	Resolution float64
	// Offset and Limit page the list of communities (default limit 20).
	Offset, Limit int
	// Members caps the members shown per community (default 10; a symbol's own
	// community shows up to 200).
	Members int
}

// Community is one group of symbols more connected to each other than to the rest.
type Community struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Size int    `json:"size"`
	// Modularity is the community's share of the partition's modularity.
	Modularity  float64    `json:"modularity_contribution"`
	Directories []DirCount `json:"directories"`
	// Members are the most connected first (weighted degree), at most the cap.
	Members []Item `json:"members"`
}

// DirCount is how many members of a community live in one directory.
type DirCount struct {
	Dir   string `json:"dir"`
	Count int    `json:"count"`
}

// CommunitiesAnswer is the partition of the indexed symbols into communities,
// paged over communities.
type CommunitiesAnswer struct {
	PartitionSummary
	Communities []Community `json:"communities"`
	Offset      int         `json:"offset,omitempty"`
	NextOffset  int         `json:"next_offset,omitempty"`
	Truncated   bool        `json:"truncated,omitempty"`
}

// PartitionSummary describes a partition as a whole.
type PartitionSummary struct {
	Question   string  `json:"question"`
	Symbol     string  `json:"symbol,omitempty"`
	Certainty  string  `json:"certainty"`
	Why        string  `json:"why"`
	Algorithm  string  `json:"algorithm"`
	Resolution float64 `json:"resolution"`
	Modularity float64 `json:"modularity"`
	// Nodes and Edges are the graph partitioned; Count the communities of two or
	// more members, Singletons the symbols connected to nothing they could join.
	Nodes      int `json:"nodes"`
	Edges      int `json:"edges"`
	Count      int `json:"community_count"`
	Singletons int `json:"singletons"`
	Repaired   int `json:"repaired"`
}

// Communities partitions the indexed symbols (deterministic Louvain with a repair
// pass, package community). With a symbol, the answer holds that symbol's
// community (every community of the definitions the name denotes); without, the
// communities by decreasing size, paged.
func Communities(ctx context.Context, st *store.Store, symbol string, opt CommunityOptions) (*CommunitiesAnswer, error) {
	if opt.Resolution < 0 || opt.Offset < 0 || opt.Limit < 0 || opt.Members < 0 {
		return nil, fmt.Errorf("communities: resolution, offset, limit and members must not be negative")
	}
	if opt.Resolution == 0 {
		opt.Resolution = 1
	}
	if opt.Limit == 0 {
		opt.Limit = 20
	}
	var targets []graph.Node
	if symbol != "" {
		sym, err := resolve(ctx, st, symbol)
		if err != nil {
			return nil, err
		}
		targets = sym.nodes
		if opt.Members == 0 {
			opt.Members = 200
		}
	}
	if opt.Members == 0 {
		opt.Members = 10
	}
	g, p, err := partition(ctx, st, opt.Resolution)
	if err != nil {
		return nil, err
	}
	a := &CommunitiesAnswer{Communities: []Community{}}
	a.PartitionSummary = PartitionSummary{Question: "communities", Symbol: symbol, Certainty: LowerBound,
		Why: "a partition that maximises modularity (Louvain, then disconnected communities split): " +
			"a heuristic view of how the code clusters, not a fact of the code; edges weighted " +
			"contains 5, calls 3, implements and extends 2, references 1",
		Algorithm: "louvain+repair", Resolution: opt.Resolution, Modularity: p.Modularity,
		Nodes: len(g.nodes), Edges: len(g.edges), Repaired: p.Repaired}
	members := make([][]int, len(p.Sizes))
	for i, c := range p.Of {
		members[c] = append(members[c], i)
	}
	for _, size := range p.Sizes {
		if size > 1 {
			a.Count++
		} else {
			a.Singletons++
		}
	}
	describe := func(c int) Community {
		return g.describe(c, members[c], p.Contribution[c], opt.Members)
	}
	if symbol != "" {
		seen := map[int]bool{}
		for _, t := range targets {
			i, ok := g.index[g.owner(t.QName)]
			if !ok || seen[p.Of[i]] || p.Sizes[p.Of[i]] < 2 {
				continue
			}
			seen[p.Of[i]] = true
			a.Communities = append(a.Communities, describe(p.Of[i]))
		}
		if len(a.Communities) == 0 {
			a.Why = fmt.Sprintf("%q is connected to no other symbol by the edges communities use, so it belongs to none", symbol)
		}
		return a, nil
	}
	listed := a.Count // singletons come last (sizes are decreasing) and are not listed
	for c := opt.Offset; c < listed && len(a.Communities) < opt.Limit; c++ {
		a.Communities = append(a.Communities, describe(c))
	}
	a.Offset = opt.Offset
	if end := opt.Offset + len(a.Communities); end < listed {
		a.NextOffset, a.Truncated = end, true
	}
	return a, nil
}

// partitioned is a graph and its partition, as the store keeps them.
type partitioned struct {
	g *communityGraph
	p community.Partition
}

// partition loads the graph and partitions it, once per version of the index
// while the store stays open (store.Memo): seconds on a large repository, which
// a long-lived server would otherwise pay on every question.
func partition(ctx context.Context, st *store.Store, resolution float64) (*communityGraph, community.Partition, error) {
	v, err := st.Memo(ctx, fmt.Sprintf("communities/%g", resolution), func() (any, error) {
		g, err := loadCommunityGraph(ctx, st)
		if err != nil {
			return nil, err
		}
		return partitioned{g, community.Detect(len(g.nodes), g.edges, community.Options{Resolution: resolution})}, nil
	})
	if err != nil {
		return nil, community.Partition{}, err
	}
	pd := v.(partitioned)
	return pd.g, pd.p, nil
}

// communityGraph is the store's symbols as indices, with weighted edges.
type communityGraph struct {
	nodes   []graph.Node
	index   map[string]int
	owners  map[string]string // field or variant → its type
	edges   []community.Edge
	degrees []float64
}

func loadCommunityGraph(ctx context.Context, st *store.Store) (*communityGraph, error) {
	all, err := st.PassNodes(ctx) // no signatures or docs needed
	if err != nil {
		return nil, err
	}
	g := &communityGraph{index: map[string]int{}, owners: map[string]string{}}
	kind := map[string]graph.NodeKind{}
	for _, n := range all {
		kind[n.QName] = n.Kind
		if memberKinds[n.Kind] {
			g.index[n.QName] = len(g.nodes)
			g.nodes = append(g.nodes, n)
		}
	}
	edges, err := st.AllEdges(ctx, graph.EdgeContains, graph.EdgeCalls, graph.EdgeImplements, graph.EdgeExtends, graph.EdgeReferences)
	if err != nil {
		return nil, err
	}
	for _, e := range edges {
		if e.Kind == graph.EdgeContains && (kind[e.To] == graph.KindField || kind[e.To] == graph.KindVariant) {
			g.owners[e.To] = e.From
		}
	}
	g.degrees = make([]float64, len(g.nodes))
	for _, e := range edges {
		a, okA := g.index[g.owner(e.From)]
		b, okB := g.index[g.owner(e.To)]
		if !okA || !okB || a == b {
			continue
		}
		w := communityWeights[e.Kind]
		g.edges = append(g.edges, community.Edge{A: a, B: b, Weight: w})
		g.degrees[a] += w
		g.degrees[b] += w
	}
	return g, nil
}

func (g *communityGraph) owner(q string) string {
	if o, ok := g.owners[q]; ok {
		return o
	}
	return q
}

// describe names a community after its most common directory and its most
// connected member, and lists its members, most connected first.
func (g *communityGraph) describe(id int, members []int, contribution float64, limit int) Community {
	slices.SortFunc(members, func(a, b int) int {
		if c := cmp.Compare(g.degrees[b], g.degrees[a]); c != 0 {
			return c
		}
		return strings.Compare(g.nodes[a].QName, g.nodes[b].QName)
	})
	dirs := map[string]int{}
	for _, m := range members {
		dirs[path.Dir(g.nodes[m].File)]++
	}
	c := Community{ID: id, Size: len(members), Modularity: contribution}
	for d, n := range dirs {
		c.Directories = append(c.Directories, DirCount{d, n})
	}
	slices.SortFunc(c.Directories, func(a, b DirCount) int {
		if x := cmp.Compare(b.Count, a.Count); x != 0 {
			return x
		}
		return strings.Compare(a.Dir, b.Dir)
	})
	if len(c.Directories) > 5 {
		c.Directories = c.Directories[:5]
	}
	top := g.nodes[members[0]]
	c.Name = c.Directories[0].Dir + ": " + top.Name
	if len(dirs) > 1 {
		c.Name = fmt.Sprintf("%s (+%d dirs): %s", c.Directories[0].Dir, len(dirs)-1, top.Name)
	}
	for _, m := range members[:min(limit, len(members))] {
		c.Members = append(c.Members, nodeItem(g.nodes[m]))
	}
	return c
}
