package query

import (
	"context"
	"fmt"
	"sort"

	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// rrfK is reciprocal rank fusion's constant (Cormack et al. 2009): a hit's score
// is the sum over rankings of 1/(rrfK + rank), rank from 1.
const rrfK = 60

// searchDepth is how many hits each leg contributes to the fusion; searchLimit
// how many the answer keeps.
const (
	searchDepth = 50
	searchLimit = 20
)

// VectorLeg ranks symbols by embedding similarity to a query (package embed).
type VectorLeg interface {
	// Rank returns qualified names, best first, and a note on what it saw.
	Rank(ctx context.Context, st *store.Store, query string, limit int) ([]string, string, error)
}

// Leg is one ranking of a search answer.
type Leg struct {
	Name string `json:"name"` // bm25 or vector
	Ran  bool   `json:"ran"`
	Hits int    `json:"hits"`
	Note string `json:"note,omitempty"`
}

func search(ctx context.Context, st *store.Store, q string, vectors VectorLeg) (*Answer, error) {
	return Search(ctx, st, q, SearchOptions{Vectors: vectors})
}

// SearchOptions tune Search; the zero value means the defaults.
type SearchOptions struct {
	Vectors VectorLeg
	// Depth is how many hits each leg ranks (default 50); Limit how many the
	// answer keeps (default 20).
	Depth, Limit int
}

// Search ranks symbols by BM25 and, when a vector leg is configured, by
// embeddings, and fuses the two by reciprocal rank. A vector leg that fails
// leaves BM25 alone and the answer says why.
func Search(ctx context.Context, st *store.Store, q string, opt SearchOptions) (*Answer, error) {
	vectors := opt.Vectors
	depth, limit := opt.Depth, opt.Limit
	if depth <= 0 {
		depth = searchDepth
	}
	if limit <= 0 {
		limit = searchLimit
	}
	hits, err := st.Search(ctx, q, depth)
	if err != nil {
		return nil, err
	}
	a := &Answer{Question: "search", Symbol: q, Certainty: LowerBound, Items: []Item{}}
	byName := map[string]Item{}
	var bm25 []string
	for _, h := range hits {
		byName[h.QName] = Item{QName: h.QName, Kind: h.Kind, File: h.File, Line: h.Line}
		bm25 = append(bm25, h.QName)
	}
	a.Legs = []Leg{{Name: "bm25", Ran: true, Hits: len(bm25), Note: "names, qualified names, signatures, doc comments, paths"}}
	rankings := [][]string{bm25}
	vec := Leg{Name: "vector", Note: "not configured (set graph.embeddings_model)"}
	if vectors != nil {
		ranked, note, err := vectors.Rank(ctx, st, q, min(depth, searchDepth*2))
		if err != nil {
			vec.Note = "failed, BM25 alone answers: " + err.Error()
		} else {
			vec.Ran, vec.Hits, vec.Note = true, len(ranked), note
			rankings = append(rankings, ranked)
			for _, qn := range ranked {
				if _, ok := byName[qn]; ok {
					continue
				}
				n, err := st.Node(ctx, qn)
				if err != nil {
					continue // gone since it was embedded
				}
				byName[qn] = nodeItem(n)
			}
		}
	}
	a.Legs = append(a.Legs, vec)
	fused := fuse(rankings...)
	for _, qn := range fused[:min(limit, len(fused))] {
		if it, ok := byName[qn]; ok {
			a.Items = append(a.Items, it)
		}
	}
	if vec.Ran {
		a.Why = fmt.Sprintf("ranked search: BM25 and vector similarity fused by reciprocal rank (K=%d)", rrfK)
	} else {
		a.Why = "ranked text search (BM25 over names, signatures, docs and paths); the vector leg " + vec.Note
	}
	return a, nil
}

// fuse merges rankings by reciprocal rank: best fused score first, ties by the
// best single rank, then by name.
func fuse(rankings ...[]string) []string {
	score := map[string]float64{}
	best := map[string]int{}
	for _, r := range rankings {
		for i, qn := range r {
			score[qn] += 1.0 / float64(rrfK+i+1)
			if b, ok := best[qn]; !ok || i < b {
				best[qn] = i
			}
		}
	}
	out := make([]string, 0, len(score))
	for qn := range score {
		out = append(out, qn)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if score[a] != score[b] {
			return score[a] > score[b]
		}
		if best[a] != best[b] {
			return best[a] < best[b]
		}
		return a < b
	})
	return out
}
