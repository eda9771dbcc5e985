package agentenv

import (
	"context"
	"os"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/modellist"
)

// serverModels reads the servers' model lists through a cache under
// <home>/cache/models, so a name only the server lists costs a request once an
// hour at most; a configured name never gets here. A list that cannot be read
// is a one-line notice on stderr, and the run goes on with the configured models.
func serverModels(home string) config.ListModels {
	l := &modellist.Lister{Dir: filepath.Join(home, "cache", "models"), Notice: os.Stderr}
	return func(p config.Provider, apiKey string, cachedOnly bool) ([]config.ServerModel, error) {
		s := modellist.Server{Name: p.Name, BaseURL: p.BaseURL, APIKey: apiKey, Headers: p.Headers}
		var listed []modellist.Model
		if cachedOnly {
			listed = l.Cached(s)
		} else {
			var err error
			if listed, err = l.Models(context.Background(), s); err != nil {
				return nil, err
			}
		}
		out := make([]config.ServerModel, len(listed))
		for i, m := range listed {
			out[i] = config.ServerModel{ID: m.ID, Aliases: m.Aliases, ContextWindow: m.ContextWindow}
		}
		return out, nil
	}
}
