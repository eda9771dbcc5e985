package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// With graph.embeddings_model set, graph index embeds the symbols through the
// provider's /embeddings endpoint (the fake's, here), once, and search fuses the
// vector leg with BM25.
func TestGraphSearchWithEmbeddings(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env = append(h.env, "ALBERT_CODE_GRAPH_EMBEDDINGS_MODEL=bge-m3")
	repo := graphRepo(t, h)
	r := h.run("graph", "index", repo)
	if r.code != ExitOK || !strings.Contains(r.stdout, "symbols embedded by bge-m3") {
		t.Fatalf("index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	first := embeddingsRequests(h)
	if first == 0 {
		t.Fatal("no request reached /embeddings")
	}
	if r = h.run("graph", "index", repo); !strings.Contains(r.stdout, "(0 new)") || embeddingsRequests(h) != first {
		t.Fatalf("second index embedded again:\n%s", r.stdout)
	}

	r = h.run("graph", "--repo", repo, "query", "search", "area of a shape", "--json")
	var a struct {
		Why  string `json:"why"`
		Legs []struct {
			Name string `json:"name"`
			Ran  bool   `json:"ran"`
			Note string `json:"note"`
		} `json:"legs"`
		Items []struct {
			QName string `json:"qualified_name"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &a); err != nil || r.code != ExitOK {
		t.Fatalf("search: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if len(a.Legs) != 2 || !a.Legs[1].Ran || !strings.Contains(a.Legs[1].Note, "bge-m3") || !strings.Contains(a.Why, "K=60") || len(a.Items) == 0 {
		t.Fatalf("search answer: %+v", a)
	}
}

func TestGraphSearchEmbeddingsDown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv = fakemodel.NewTest(t, fakemodel.Script{EmbedFail: true})
	h.env = append(h.env, "ALBERT_CODE_GRAPH_EMBEDDINGS_MODEL=bge-m3")
	repo := graphRepo(t, h)
	r := h.run("graph", "index", repo)
	if r.code != ExitOK || !strings.Contains(r.stdout, "embeddings: not updated") || !strings.Contains(r.stdout, "503") {
		t.Fatalf("index with embeddings down: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = h.run("graph", "--repo", repo, "query", "search", "Shape")
	if r.code != ExitOK || !strings.Contains(r.stdout, "failed, BM25 alone answers") || !strings.Contains(r.stdout, "Shape") {
		t.Fatalf("search with embeddings down: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func embeddingsRequests(h *harness) int {
	n := 0
	for _, r := range h.srv.Requests() {
		if strings.HasSuffix(r.Path, "/embeddings") {
			n++
		}
	}
	return n
}
