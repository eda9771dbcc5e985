package community

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// clique adds the edges of a complete graph over nodes from..to-1.
func clique(edges []Edge, from, to int) []Edge {
	for a := from; a < to; a++ {
		for b := a + 1; b < to; b++ {
			edges = append(edges, Edge{a, b, 1})
		}
	}
	return edges
}

func TestTwoCliquesJoinedByOneEdge(t *testing.T) {
	edges := clique(clique(nil, 0, 5), 5, 10)
	edges = append(edges, Edge{4, 5, 1})
	p := Detect(10, edges, Options{})
	want := []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
	if !reflect.DeepEqual(p.Of, want) {
		t.Fatalf("Of = %v, want %v", p.Of, want)
	}
	if !reflect.DeepEqual(p.Sizes, []int{5, 5}) {
		t.Errorf("Sizes = %v", p.Sizes)
	}
	// Q = 2 × (20/42 − (21/42)²) for two 5-cliques and a bridge (m = 21).
	if want := 2 * (20.0/42 - 0.25); math.Abs(p.Modularity-want) > 1e-9 {
		t.Errorf("Modularity = %v, want %v", p.Modularity, want)
	}
	if s := p.Contribution[0] + p.Contribution[1]; math.Abs(s-p.Modularity) > 1e-12 {
		t.Errorf("contributions sum to %v, modularity %v", s, p.Modularity)
	}
}

// A ring of cliques is the classic case: each clique its own community, which
// needs the aggregation phase to be right on larger rings.
func TestRingOfCliques(t *testing.T) {
	const k, size = 12, 6
	var edges []Edge
	for c := range k {
		edges = clique(edges, c*size, (c+1)*size)
		edges = append(edges, Edge{c*size + size - 1, ((c + 1) % k) * size, 1})
	}
	p := Detect(k*size, edges, Options{})
	if len(p.Sizes) != k {
		t.Fatalf("%d communities, want %d: %v", len(p.Sizes), k, p.Sizes)
	}
	for c := range k {
		for i := 1; i < size; i++ {
			if p.Of[c*size+i] != p.Of[c*size] {
				t.Fatalf("clique %d split: %v", c, p.Of)
			}
		}
	}
}

func TestDeterministicWhateverTheEdgeOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var edges []Edge
	for range 600 {
		a, b := r.IntN(200), r.IntN(200)
		edges = append(edges, Edge{a, b, float64(1 + r.IntN(3))})
	}
	first := Detect(200, edges, Options{})
	for range 5 {
		shuffled := append([]Edge(nil), edges...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for i := range shuffled {
			if r.IntN(2) == 0 {
				shuffled[i].A, shuffled[i].B = shuffled[i].B, shuffled[i].A
			}
		}
		if got := Detect(200, shuffled, Options{}); !reflect.DeepEqual(got, first) {
			t.Fatal("the partition depends on the order of the edges")
		}
	}
	if first.Modularity <= 0.2 {
		t.Errorf("modularity %v on a sparse random graph: Louvain should find structure", first.Modularity)
	}
}

func TestResolutionChangesGranularity(t *testing.T) {
	var edges []Edge
	for c := range 8 {
		edges = clique(edges, c*4, c*4+4)
		edges = append(edges, Edge{c*4 + 3, ((c + 1) % 8) * 4, 1})
	}
	fine := Detect(32, edges, Options{Resolution: 2})
	coarse := Detect(32, edges, Options{Resolution: 0.1})
	if len(coarse.Sizes) >= len(fine.Sizes) {
		t.Errorf("γ=0.1 gave %d communities, γ=2 gave %d: a lower resolution must merge", len(coarse.Sizes), len(fine.Sizes))
	}
}

// Louvain can leave a community whose members only connect through another
// community; repair splits it into its connected parts.
func TestRepairSplitsDisconnectedCommunities(t *testing.T) {
	g := build(5, []Edge{{0, 1, 1}, {1, 2, 1}, {3, 4, 1}})
	of, added := repair(g, []int{7, 7, 9, 7, 7})
	// {0,1} and {3,4} share label 7 but do not touch: two communities; 2 is alone.
	if added != 1 {
		t.Errorf("added = %d, want 1", added)
	}
	if of[0] != of[1] || of[3] != of[4] || of[0] == of[3] || of[2] == of[0] || of[2] == of[3] {
		t.Errorf("repair = %v", of)
	}
}

func TestIsolatedNodesAndEmptyGraph(t *testing.T) {
	p := Detect(3, nil, Options{})
	if len(p.Sizes) != 3 || p.Modularity != 0 {
		t.Errorf("no edges: %+v", p)
	}
	p = Detect(0, nil, Options{})
	if len(p.Of) != 0 || len(p.Sizes) != 0 {
		t.Errorf("empty: %+v", p)
	}
	// Self-loops and non-positive weights are ignored rather than corrupting degrees.
	p = Detect(2, []Edge{{0, 0, 5}, {0, 1, -1}, {1, 1, 0}}, Options{})
	if len(p.Sizes) != 2 {
		t.Errorf("ignored edges: %+v", p)
	}
}

func BenchmarkDetect(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 20000
	var edges []Edge
	for c := 0; c < n; c += 20 {
		for range 60 {
			edges = append(edges, Edge{c + r.IntN(20), c + r.IntN(20), 1})
		}
		edges = append(edges, Edge{c + r.IntN(20), r.IntN(n), 1})
	}
	b.ResetTimer()
	for b.Loop() {
		Detect(n, edges, Options{})
	}
}
