package agentenv

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// graph.embeddings_model turns the embeddings leg on, through the active
// model's provider unless graph.embeddings_provider names another; a provider
// that does not exist is the reason search reports.
func TestGraphEmbeddingsFromTheConfiguration(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{})
	e, _ := loopEnv(t, srv, "", true, map[string]string{})
	if c := e.GraphEmbeddings(); c.Configured() {
		t.Errorf("embeddings without graph.embeddings_model: %+v", c)
	}
	e, _ = loopEnv(t, srv, "[graph]\nembeddings_model = \"bge-m3\"\n", true, map[string]string{})
	c := e.GraphEmbeddings()
	if c.Err != nil || c.Client == nil || c.Client.Model != "bge-m3" || c.Client.APIKey != "k" || !strings.HasPrefix(c.Client.BaseURL, srv.URL()) {
		t.Fatalf("embeddings through the active provider: %+v (client %+v)", c, c.Client)
	}
	e, _ = loopEnv(t, srv, "[graph]\nembeddings_model = \"bge-m3\"\nembeddings_provider = \"nowhere\"\n", true, map[string]string{})
	if c := e.GraphEmbeddings(); c.Client != nil || c.Err == nil || !strings.Contains(c.Err.Error(), `graph.embeddings_provider: unknown provider "nowhere"`) {
		t.Errorf("an unknown embeddings provider: %+v", c)
	}
}
