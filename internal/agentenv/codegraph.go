package agentenv

import (
	"context"
	"fmt"
	"sync"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/graph/embed"
	"github.com/etalab-ia/albert-code/internal/llm"
)

// sharedGraph is the workspace's code_graph tool, built on first use and shared
// by an Env's copies, so the agent and its sub-agents share its refresh lock and
// the index it keeps open.
type sharedGraph struct {
	once sync.Once
	tool *agenttool.Tool
}

// codeGraph is the code_graph tool over WorkDir, with the workspace rules of
// agenttool.ForWorkspace; nil for an Env not made by Load.
func (e *Env) codeGraph() *agenttool.Tool {
	if e.graph == nil {
		return nil
	}
	e.graph.once.Do(func() {
		e.graph.tool = agenttool.ForWorkspace(e.WorkDir, agenttool.WorkspaceOptions{Embeddings: e.GraphEmbeddings()})
	})
	return e.graph.tool
}

// GraphEmbeddings is the model that embeds code-graph symbols for search, from
// graph.embeddings_model and graph.embeddings_provider (default: the active
// model's provider); the zero Config when no model is set. A configured model
// that cannot work (no key, an unknown provider) comes with the reason, which
// search reports beside its BM25 answer.
func (e *Env) GraphEmbeddings() embed.Config {
	cfg := e.Config
	g := cfg.Graph
	if g.EmbeddingsModel == "" {
		return embed.Config{}
	}
	name := g.EmbeddingsProvider
	if name == "" {
		m, err := cfg.ActiveModel()
		if err != nil {
			return embed.Config{Err: err}
		}
		name = m.Provider
	}
	p, err := cfg.Provider(name)
	if err != nil {
		return embed.Config{Err: fmt.Errorf("graph.embeddings_provider: %w", err)}
	}
	key, err := cfg.APIKey(p.Name)
	if err != nil {
		return embed.Config{Err: err}
	}
	return embed.Config{Client: &embed.Client{BaseURL: p.BaseURL, APIKey: key, Model: g.EmbeddingsModel}}
}

// changeNotifier is told the workspace may have changed (agenttool.Tool.Changed).
type changeNotifier interface{ Changed() }

// refreshAfterChanges is a middleware that tells the code graph before a turn
// when the previous one ran a tool that may change files (mutating reports
// which): the index is then refreshed in the background, before the next
// question needs it.
type refreshAfterChanges struct {
	graph    changeNotifier
	mutating func(tool string) bool
}

func (r *refreshAfterChanges) BeforeTurn(_ context.Context, info agent.TurnInfo) agent.Action {
	for i := len(info.View) - 1; i >= 0; i-- {
		m := info.View[i]
		if m.Role != llm.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls {
			if r.mutating(c.Name) {
				r.graph.Changed()
				break
			}
		}
		break
	}
	return agent.Action{}
}
