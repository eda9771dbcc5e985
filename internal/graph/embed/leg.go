package embed

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// searchable are the node kinds the vector leg ranks: what a user searches for.
var searchable = map[graph.NodeKind]bool{
	graph.KindFunction: true, graph.KindMethod: true, graph.KindClass: true, graph.KindStruct: true,
	graph.KindInterface: true, graph.KindEnum: true, graph.KindTypeAlias: true, graph.KindType: true,
	graph.KindConstant: true, graph.KindVariable: true, graph.KindField: true,
}

// Doc is one symbol as the model reads it.
type Doc struct {
	QName, Text string
}

// Docs builds the text of every searchable node: kind, qualified name,
// signature, the start of its doc comment, and its file.
func Docs(ctx context.Context, st *store.Store) ([]Doc, error) {
	nodes, err := st.AllNodes(ctx)
	if err != nil {
		return nil, err
	}
	var docs []Doc
	for _, n := range nodes {
		if !searchable[n.Kind] {
			continue
		}
		doc := n.Doc
		if len(doc) > 600 {
			doc = doc[:600]
		}
		text := strings.TrimSpace(fmt.Sprintf("%s %s\n%s\n%s\n%s", n.Kind, n.QName, n.Signature, doc, n.File))
		docs = append(docs, Doc{QName: n.QName, Text: text})
	}
	return docs, nil
}

// Leg is the vector leg of search.
type Leg struct {
	Client *Client
	Cache  *Cache
	// MaxNew bounds the symbols embedded while answering one search (the rest
	// are left out and the answer says how many); zero means 256. Indexing
	// embeds them all (Refresh).
	MaxNew int
}

// Coverage says how much of the index the vector leg could see.
type Coverage struct {
	Model    string `json:"model"`
	Embedded int    `json:"embedded"`
	Total    int    `json:"total"`
	New      int    `json:"new"`
}

// Refresh embeds every symbol whose text has no cached vector, maxNew at most
// (0: all), and returns the vectors of the docs by qualified name.
func (l *Leg) Refresh(ctx context.Context, docs []Doc, maxNew int) (map[string][]float32, Coverage, error) {
	cov := Coverage{Model: l.Client.Model, Total: len(docs)}
	keys := make([]string, len(docs))
	for i, d := range docs {
		keys[i] = Key(l.Client.Model, d.Text)
	}
	cached, err := l.Cache.Get(ctx, keys)
	if err != nil {
		return nil, cov, err
	}
	var missing []int
	for i, k := range keys {
		if _, ok := cached[k]; !ok {
			missing = append(missing, i)
		}
	}
	if maxNew > 0 && len(missing) > maxNew {
		missing = missing[:maxNew]
	}
	if len(missing) > 0 {
		texts := make([]string, len(missing))
		for j, i := range missing {
			texts[j] = docs[i].Text
		}
		vecs, err := l.Client.Embed(ctx, texts)
		if err != nil {
			return nil, cov, err
		}
		fresh := make(map[string][]float32, len(vecs))
		for j, i := range missing {
			fresh[keys[i]] = vecs[j]
			cached[keys[i]] = vecs[j]
		}
		if err := l.Cache.Put(ctx, fresh); err != nil {
			return nil, cov, err
		}
		cov.New = len(missing)
	}
	out := make(map[string][]float32, len(docs))
	for i, d := range docs {
		if v, ok := cached[keys[i]]; ok {
			out[d.QName] = v
		}
	}
	cov.Embedded = len(out)
	return out, cov, nil
}

// Rank returns the qualified names closest to query, best first, and a note on
// what the leg saw (query.VectorLeg).
func (l *Leg) Rank(ctx context.Context, st *store.Store, query string, limit int) ([]string, string, error) {
	docs, err := Docs(ctx, st)
	if err != nil {
		return nil, "", err
	}
	maxNew := l.MaxNew
	if maxNew <= 0 {
		maxNew = 256
	}
	vecs, cov, err := l.Refresh(ctx, docs, maxNew)
	if err != nil {
		return nil, "", err
	}
	q, err := l.queryVector(ctx, query)
	if err != nil {
		return nil, "", err
	}
	type scored struct {
		qname string
		score float32
	}
	var all []scored
	for qn, v := range vecs {
		all = append(all, scored{qn, dot(q, v)})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score > all[j].score
		}
		return all[i].qname < all[j].qname
	})
	var out []string
	for _, s := range all[:min(limit, len(all))] {
		out = append(out, s.qname)
	}
	note := fmt.Sprintf("%s, %d of %d symbols embedded", cov.Model, cov.Embedded, cov.Total)
	if cov.Embedded < cov.Total {
		note += " (run albert-code graph index to embed the rest)"
	}
	return out, note, nil
}

// queryVector embeds the query, through the cache like any text.
func (l *Leg) queryVector(ctx context.Context, query string) ([]float32, error) {
	key := Key(l.Client.Model, "query\x00"+query)
	got, err := l.Cache.Get(ctx, []string{key})
	if err != nil {
		return nil, err
	}
	if v, ok := got[key]; ok {
		return v, nil
	}
	vecs, err := l.Client.Embed(ctx, []string{query})
	if err != nil {
		return nil, err
	}
	return vecs[0], l.Cache.Put(ctx, map[string][]float32{key: vecs[0]})
}
