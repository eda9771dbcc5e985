package agentenv

import (
	"context"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// Every Env made by Load offers code_graph, one tool shared by its copies (a
// profile or model switch, the sub-agents), so they share its refresh lock and
// the index it keeps open.
func TestEnvOffersOneCodeGraphSharedByItsCopies(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{})
	e, _ := loopEnv(t, srv, "", true, map[string]string{})
	reg, err := e.Tools(e.Profile, builtin.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := reg.Get(agenttool.Name)
	if !ok {
		t.Fatalf("no %s among the tools", agenttool.Name)
	}
	g := e.codeGraph()
	t.Cleanup(g.Stop)
	if got != g {
		t.Errorf("the registry's %s is not the Env's", agenttool.Name)
	}
	copied := *e
	if copied.codeGraph() != g {
		t.Error("a copy of the Env built a second code_graph tool")
	}
}

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

type countingNotifier struct{ changes int }

func (c *countingNotifier) Changed() { c.changes++ }

// The code graph hears of a change before a turn whose previous turn ran a tool
// that may change files; read-only turns, and older turns, do not count.
func TestRefreshAfterChanges(t *testing.T) {
	g := &countingNotifier{}
	mw := &refreshAfterChanges{graph: g, mutating: func(name string) bool { return name == "write" }}
	assistant := func(tools ...string) llm.Message {
		m := llm.Message{Role: llm.RoleAssistant}
		for _, name := range tools {
			m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: name, Name: name})
		}
		return m
	}
	result := llm.Message{Role: llm.RoleTool, Content: "ok"}
	for _, tt := range []struct {
		name string
		view []llm.Message
		want int
	}{
		{"read-only turn", []llm.Message{{Role: llm.RoleUser, Content: "go"}, assistant("read", "grep"), result}, 0},
		{"turn that wrote", []llm.Message{{Role: llm.RoleUser, Content: "go"}, assistant("read", "write", "write"), result}, 1},
		{"write two turns ago", []llm.Message{{Role: llm.RoleUser, Content: "go"}, assistant("write"), result, assistant("read"), result}, 0},
		{"first turn", []llm.Message{{Role: llm.RoleUser, Content: "go"}}, 0},
	} {
		g.changes = 0
		if act := mw.BeforeTurn(context.Background(), agent.TurnInfo{Turn: 2, View: tt.view}); act != (agent.Action{}) {
			t.Errorf("%s: the middleware acted: %+v", tt.name, act)
		}
		if g.changes != tt.want {
			t.Errorf("%s: %d changes heard, want %d", tt.name, g.changes, tt.want)
		}
	}
}
