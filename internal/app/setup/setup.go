// Package setup is what the setup screen offers and where it saves the answer:
// the configured providers with their models, and the key and model written
// where the configuration reads them back. The UI's --setup and albert-acp
// --setup show the same screen.
package setup

import (
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/tui"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
	"github.com/etalab-ia/albert-code/internal/tui/firstrun"
)

// FromEnv lists the configured providers and their models for the setup screen,
// and saves the answer where the configuration reads it back: the key in the home's
// .env, the model in the global file that lookupEnv locates.
func FromEnv(e *agentenv.Env, lookupEnv func(string) (string, bool)) *tui.Setup {
	s := &tui.Setup{}
	if m, err := e.Config.ActiveModel(); err == nil {
		s.Current = m.Provider
	}
	for _, p := range e.Config.Providers {
		opt := dialog.ProviderOption{Name: p.Name, BaseURL: p.BaseURL, KeyEnv: p.APIKeyEnv}
		for _, m := range e.Config.Models {
			if m.Provider == p.Name {
				opt.Models = append(opt.Models, m.Name)
			}
		}
		s.Providers = append(s.Providers, opt)
	}
	home := e.Config.Home
	s.Save = func(p dialog.ProviderOption, model, key string) error {
		global, err := config.GlobalFile(lookupEnv)
		if err != nil {
			return err
		}
		if p.Custom {
			return firstrun.SaveServer(filepath.Join(home, ".env"), global, firstrun.Server{URL: p.BaseURL, Model: model, Key: key})
		}
		return firstrun.Save(filepath.Join(home, ".env"), global, firstrun.Choice{KeyEnv: p.KeyEnv, Key: key, Model: model})
	}
	return s
}
