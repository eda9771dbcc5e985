// Package community partitions a weighted undirected graph into communities:
// Louvain (Blondel et al. 2008: local moves, then aggregation, repeated) with a
// repair pass that splits any community whose members are not connected inside
// it, the defect Traag et al. (2019) showed Louvain can leave. It is
// deterministic: the same graph gives the same partition, whatever the order
// its edges were given in.
package community

import (
	"cmp"
	"slices"
)

// Edge joins two nodes (indices into the node list) with a positive weight.
// Parallel edges add up; self-loops are ignored.
type Edge struct {
	A, B   int
	Weight float64
}

// Options tune Detect.
type Options struct {
	// Resolution is Louvain's γ: above 1 favours smaller communities, below 1
	// larger ones. Zero means 1.
	Resolution float64
	// MaxPasses bounds the local-move passes per level; zero means 100.
	MaxPasses int
}

// Partition is Detect's result.
type Partition struct {
	// Of gives each node's community, numbered from 0 by decreasing size, ties
	// broken by the smallest node index in the community.
	Of []int
	// Sizes are the member counts, by community.
	Sizes []int
	// Modularity is Newman's Q of the final partition, at the chosen resolution;
	// Contribution splits it by community.
	Modularity   float64
	Contribution []float64
	// Levels counts the aggregation levels Louvain went through; Repaired counts
	// the communities the repair pass added by splitting disconnected ones.
	Levels, Repaired int
}

// wgraph is a weighted graph in adjacency-list form, neighbours sorted by index.
// Self-loops carry the weight inside an aggregated node; degree counts it twice,
// as modularity wants.
type wgraph struct {
	adj    [][]nb
	self   []float64
	degree []float64
	total  float64 // 2m: the sum of degrees
}

type nb struct {
	to int
	w  float64
}

func build(n int, edges []Edge) *wgraph {
	sorted := slices.Clone(edges)
	for i, e := range sorted {
		if e.A > e.B {
			sorted[i].A, sorted[i].B = e.B, e.A
		}
	}
	slices.SortFunc(sorted, func(x, y Edge) int {
		if c := cmp.Compare(x.A, y.A); c != 0 {
			return c
		}
		return cmp.Compare(x.B, y.B)
	})
	g := &wgraph{adj: make([][]nb, n), self: make([]float64, n), degree: make([]float64, n)}
	for i := 0; i < len(sorted); {
		e := sorted[i]
		w := 0.0
		for ; i < len(sorted) && sorted[i].A == e.A && sorted[i].B == e.B; i++ {
			if sorted[i].Weight > 0 {
				w += sorted[i].Weight
			}
		}
		if e.A == e.B || w == 0 || e.A < 0 || e.B >= n {
			continue
		}
		g.adj[e.A] = append(g.adj[e.A], nb{e.B, w})
		g.adj[e.B] = append(g.adj[e.B], nb{e.A, w})
	}
	for i := range g.adj {
		slices.SortFunc(g.adj[i], func(x, y nb) int { return cmp.Compare(x.to, y.to) })
		for _, x := range g.adj[i] {
			g.degree[i] += x.w
		}
		g.total += g.degree[i]
	}
	return g
}

// Detect partitions the n nodes joined by edges.
func Detect(n int, edges []Edge, opts Options) Partition {
	gamma := opts.Resolution
	if gamma <= 0 {
		gamma = 1
	}
	passes := opts.MaxPasses
	if passes <= 0 {
		passes = 100
	}
	base := build(n, edges)
	of := make([]int, n) // node → community at the current level
	for i := range of {
		of[i] = i
	}
	g := base
	levels := 0
	for {
		local, moved := moveNodes(g, gamma, passes)
		if !moved {
			break
		}
		levels++
		var count int
		local, count = renumber(local)
		for i := range of {
			of[i] = local[of[i]]
		}
		if count == len(g.adj) {
			break
		}
		g = aggregate(g, local, count)
	}
	of, repaired := repair(base, of)
	return finish(base, of, gamma, levels, repaired)
}

// moveNodes is Louvain's first phase: each node in turn joins the neighbouring
// community that raises modularity most, until a pass moves nothing. It returns
// each node's community (a node index) and whether any node moved.
func moveNodes(g *wgraph, gamma float64, passes int) ([]int, bool) {
	n := len(g.adj)
	comm := make([]int, n)
	tot := make([]float64, n) // sum of degrees in each community
	for i := range comm {
		comm[i], tot[i] = i, g.degree[i]
	}
	if g.total == 0 {
		return comm, false
	}
	toComm := make([]float64, n) // weight from the current node to each community
	var touched []int
	movedAny := false
	for range passes {
		moved := false
		for i := range n {
			own := comm[i]
			touched = touched[:0]
			for _, x := range g.adj[i] {
				c := comm[x.to]
				if toComm[c] == 0 {
					touched = append(touched, c)
				}
				toComm[c] += x.w
			}
			tot[own] -= g.degree[i]
			// Gain of joining c, up to terms that do not depend on c.
			gain := func(c int) float64 { return toComm[c] - gamma*tot[c]*g.degree[i]/g.total }
			best, bestGain := own, gain(own)
			slices.Sort(touched) // ties go to the smallest community: deterministic
			for _, c := range touched {
				if gn := gain(c); gn > bestGain+1e-12 {
					best, bestGain = c, gn
				}
			}
			tot[best] += g.degree[i]
			if best != own {
				comm[i] = best
				moved, movedAny = true, true
			}
			for _, c := range touched {
				toComm[c] = 0
			}
		}
		if !moved {
			break
		}
	}
	return comm, movedAny
}

// renumber maps community labels to 0..count-1 in order of first appearance.
func renumber(comm []int) ([]int, int) {
	ids := map[int]int{}
	out := make([]int, len(comm))
	for i, c := range comm {
		id, ok := ids[c]
		if !ok {
			id = len(ids)
			ids[c] = id
		}
		out[i] = id
	}
	return out, len(ids)
}

// aggregate is Louvain's second phase: one node per community, edge weights
// summed, the weight inside a community kept as its self-loop.
func aggregate(g *wgraph, comm []int, count int) *wgraph {
	var edges []Edge
	self := make([]float64, count)
	for i, list := range g.adj {
		ci := comm[i]
		self[ci] += g.self[i]
		for _, x := range list {
			cj := comm[x.to]
			switch {
			case ci == cj:
				self[ci] += x.w / 2 // each internal edge is seen from both ends
			case i < x.to:
				edges = append(edges, Edge{ci, cj, x.w})
			}
		}
	}
	ng := build(count, edges)
	for c := range count {
		ng.self[c] = self[c]
		ng.degree[c] += 2 * self[c]
		ng.total += 2 * self[c]
	}
	return ng
}

// repair splits every community into its connected components within the
// original graph; the first component (by smallest node) keeps the label.
func repair(g *wgraph, of []int) ([]int, int) {
	out := make([]int, len(of))
	for i := range out {
		out[i] = -1
	}
	next, firstOf, added := 0, map[int]bool{}, 0
	queue := []int{}
	for start := range of {
		if out[start] >= 0 {
			continue
		}
		c := of[start]
		if firstOf[c] {
			added++
		}
		firstOf[c] = true
		id := next
		next++
		out[start] = id
		queue = append(queue[:0], start)
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for _, x := range g.adj[v] {
				if out[x.to] < 0 && of[x.to] == c {
					out[x.to] = id
					queue = append(queue, x.to)
				}
			}
		}
	}
	return out, added
}

// finish numbers communities by decreasing size and computes modularity.
func finish(g *wgraph, of []int, gamma float64, levels, repaired int) Partition {
	count := 0
	for _, c := range of {
		count = max(count, c+1)
	}
	size := make([]int, count)
	first := make([]int, count)
	for i := range first {
		first[i] = -1
	}
	for i, c := range of {
		size[c]++
		if first[c] < 0 {
			first[c] = i
		}
	}
	order := make([]int, count)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(size[b], size[a]); c != 0 {
			return c
		}
		return cmp.Compare(first[a], first[b])
	})
	rank := make([]int, count)
	for r, c := range order {
		rank[c] = r
	}
	p := Partition{Of: make([]int, len(of)), Sizes: make([]int, count), Contribution: make([]float64, count),
		Levels: levels, Repaired: repaired}
	in := make([]float64, count)
	tot := make([]float64, count)
	for i, c := range of {
		r := rank[c]
		p.Of[i] = r
		tot[r] += g.degree[i]
		for _, x := range g.adj[i] {
			if of[x.to] == c {
				in[r] += x.w
			}
		}
	}
	for c := range count {
		p.Sizes[rank[c]] = size[c]
	}
	if g.total > 0 {
		for c := range count {
			p.Contribution[c] = in[c]/g.total - gamma*(tot[c]/g.total)*(tot[c]/g.total)
			p.Modularity += p.Contribution[c]
		}
	}
	return p
}
