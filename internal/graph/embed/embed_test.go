package embed

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

func embedRequests(fm *fakemodel.Server) int {
	n := 0
	for _, r := range fm.Requests() {
		if strings.HasSuffix(r.Path, "/embeddings") {
			n++
		}
	}
	return n
}

func newLeg(t *testing.T, fm *fakemodel.Server) *Leg {
	t.Helper()
	cache, err := OpenCache(filepath.Join(t.TempDir(), "embeddings.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cache.Close() })
	return &Leg{Client: &Client{BaseURL: fm.URL(), APIKey: "k", Model: "bge-m3", Batch: 2}, Cache: cache}
}

func TestClientBatchesAndNormalises(t *testing.T) {
	fm := fakemodel.NewTest(t, fakemodel.Script{})
	c := &Client{BaseURL: fm.URL(), APIKey: "secret", Model: "bge-m3", Batch: 2}
	vecs, err := c.Embed(context.Background(), []string{"parse config", "parse config", "write file"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 3 || embedRequests(fm) != 2 {
		t.Fatalf("%d vectors in %d requests, want 3 in 2", len(vecs), embedRequests(fm))
	}
	if d := dot(vecs[0], vecs[1]); d < 0.999 {
		t.Errorf("same text, similarity %v", d)
	}
	if d := dot(vecs[0], vecs[2]); d > 0.5 {
		t.Errorf("different words, similarity %v", d)
	}
	req := fm.Requests()[0]
	if req.Header.Get("Authorization") != "Bearer secret" || req.JSON["model"] != "bge-m3" {
		t.Errorf("request: %v %v", req.Header, req.JSON)
	}
}

func TestClientErrorsNameTheEndpoint(t *testing.T) {
	fm := fakemodel.NewTest(t, fakemodel.Script{EmbedFail: true})
	_, err := (&Client{BaseURL: fm.URL(), Model: "m"}).Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "/v1/embeddings") || !strings.Contains(err.Error(), "503") {
		t.Fatalf("err = %v", err)
	}
}

// storeWith writes nodes into a fresh store.
func storeWith(t *testing.T, nodes ...graph.Node) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	facts := map[string]*graph.FileFacts{}
	for _, n := range nodes {
		f := facts[n.File]
		if f == nil {
			f = &graph.FileFacts{Path: n.File, Language: "python", Hash: "h" + n.File}
			facts[n.File] = f
		}
		f.Nodes = append(f.Nodes, n)
	}
	var all []graph.FileFacts
	for _, f := range facts {
		all = append(all, *f)
	}
	if err := st.ReplaceFiles(context.Background(), all, nil); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestRankUsesTheCacheAndSaysWhatItSaw(t *testing.T) {
	fm := fakemodel.NewTest(t, fakemodel.Script{})
	leg := newLeg(t, fm)
	st := storeWith(t,
		// The doc alone matches the query: a text without it would rank by name.
		graph.Node{QName: "a.py::draw", Kind: graph.KindFunction, Name: "draw", File: "a.py", Line: 1, Doc: "Paint the widget on screen."},
		graph.Node{QName: "b.py::load_settings", Kind: graph.KindFunction, Name: "load_settings", File: "b.py", Line: 1, Doc: "Read the configuration file."},
		graph.Node{QName: "b.py", Kind: graph.KindFile, Name: "b.py", File: "b.py", Line: 1},
	)
	ctx := context.Background()
	got, note, err := leg.Rank(ctx, st, "configuration file", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "b.py::load_settings" {
		t.Fatalf("rank = %v (files are not searchable)", got)
	}
	if !strings.Contains(note, "bge-m3, 2 of 2 symbols embedded") {
		t.Errorf("note = %q", note)
	}
	before := embedRequests(fm)
	if _, _, err := leg.Rank(ctx, st, "configuration file", 5); err != nil {
		t.Fatal(err)
	}
	if n := embedRequests(fm) - before; n != 0 {
		t.Errorf("a repeated search made %d embeddings requests, want 0 (cached)", n)
	}

	// A cap on new embeddings leaves symbols out, and the note says so.
	leg2 := newLeg(t, fm)
	leg2.MaxNew = 1
	_, note, err = leg2.Rank(ctx, st, "configuration file", 5)
	if err != nil || !strings.Contains(note, "1 of 2 symbols embedded") || !strings.Contains(note, "graph index") {
		t.Errorf("capped note = %q, %v", note, err)
	}
}

func TestCacheSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "embeddings.db")
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want := []float32{0.6, -0.8, 0}
	if err := c.Put(ctx, map[string][]float32{Key("m", "t"): want}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, err = OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.Get(ctx, []string{Key("m", "t"), Key("other-model", "t")})
	if err != nil || len(got) != 1 || got[Key("m", "t")][1] != -0.8 {
		t.Fatalf("got %v, %v", got, err)
	}
	if err := os.WriteFile(path, []byte("not a database at all, not at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCache(path); err == nil || !strings.Contains(err.Error(), "delete the file") {
		t.Errorf("corrupt cache: %v", err)
	}
}
