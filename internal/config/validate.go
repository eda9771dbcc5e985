package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// validate checks references between entries once every layer is merged: a model
// naming an unknown provider or fallback, an unknown active model, an alias that
// shadows another model. Each error points at the layer that wrote the bad value.
func (c *Config) validate() error {
	var errs []error
	names := map[string]string{}
	for _, m := range c.Models {
		names[m.Name] = m.Name
	}
	for _, m := range c.Models {
		key := "models." + m.Name + "."
		switch {
		case m.Provider == "":
			errs = append(errs, c.errAt(key+"name", "model "+m.Name+" has no provider: set provider", ""))
		default:
			if _, err := c.Provider(m.Provider); err != nil {
				errs = append(errs, c.errAt(key+"provider", err.Error(), tomlfile.Suggest(m.Provider, c.providerNames())))
			}
		}
		if m.FallbackModel != "" {
			if _, err := c.Model(m.FallbackModel); err != nil {
				errs = append(errs, c.errAt(key+"fallback_model", err.Error(), tomlfile.Suggest(m.FallbackModel, c.modelNames())))
			}
		}
		for _, a := range m.Aliases {
			if owner, ok := names[a]; ok && owner != m.Name {
				errs = append(errs, c.errAt(key+"aliases", fmt.Sprintf("alias %q is already the name or an alias of model %s", a, owner), ""))
			}
			names[a] = m.Name
		}
	}
	if _, err := c.ActiveModel(); err != nil {
		errs = append(errs, c.errAt("model", err.Error(), tomlfile.Suggest(c.ModelName, c.modelNames())))
	}
	return errors.Join(errs...)
}

// errAt builds an error located at the source of key.
func (c *Config) errAt(key, msg, suggestion string) error {
	s := c.sources[key]
	e := &tomlfile.Error{Key: key, Msg: msg, Suggestion: suggestion}
	if s.Kind == SourceFile {
		e.Where, e.Line = s.Name, s.Line
	} else {
		e.Where = s.String()
	}
	if strings.HasPrefix(msg, key) {
		e.Key = ""
	}
	return e
}
