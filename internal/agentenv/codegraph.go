package agentenv

import (
	"fmt"

	"github.com/etalab-ia/albert-code/internal/graph/embed"
)

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
