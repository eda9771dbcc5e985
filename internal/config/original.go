package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// OriginalConfigFile is where the original Python albert-code keeps its one global
// config file: config.toml in its home, which is ours too (notes §2.13).
func OriginalConfigFile(home string) string { return filepath.Join(home, "config.toml") }

// originalShipped are the providers and models the original wrote into a new
// config.toml (notes §2.14). They are its defaults, not the user's choices: left in,
// its stale wire ids (Qwen3-Coder-30B, albert-code-cli-latest) would shadow ours and
// the migration table. Entries the user added or changed are kept.
var (
	originalShippedProviders = map[string]string{
		"mistral":  "https://api.mistral.ai/v1",
		"albert":   "https://albert.api.etalab.gouv.fr/v1",
		"llamacpp": "http://127.0.0.1:8080/v1",
	}
	originalShippedModels = map[string]string{
		"albert-code":    "Qwen/Qwen3-Coder-30B-A3B-Instruct",
		"albert-large":   "openai/gpt-oss-120b",
		"devstral-2":     "albert-code-cli-latest",
		"devstral-small": "devstral-small-latest",
		"local":          "devstral",
	}
)

// applyOriginal reads the original's global config.toml in place, below our own
// global file: it is read, not moved, because the original tool may still be
// installed and keeps writing it. The file is read in the original's schema (that of
// .vibe.toml). One that cannot be read is a notice, not an error: the run goes on
// with the other layers, and the file is left as it is.
func (c *Config) applyOriginal(home string) {
	path := OriginalConfigFile(home)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err == nil {
		var l *layer
		var o origin
		if l, o, err = decodeVibe(path, data); err == nil {
			dropOriginalDefaults(l)
			if err = c.apply(l, o); err == nil {
				c.Files = append(c.Files, path)
				return
			}
		}
	}
	c.Notices = append(c.Notices, fmt.Sprintf("the original albert-code's config was not read, the run goes on without it: %v", err))
}

func dropOriginalDefaults(l *layer) {
	l.Providers = slices.DeleteFunc(l.Providers, func(p providerLayer) bool {
		return p.Name != nil && p.BaseURL != nil && originalShippedProviders[*p.Name] == *p.BaseURL
	})
	l.Models = slices.DeleteFunc(l.Models, func(m modelLayer) bool {
		return m.Name != nil && m.WireName != nil && originalShippedModels[*m.Name] == *m.WireName
	})
}

// ProxyVars are the variables the original's /proxy-setup saved in <home>/.env
// (ac:albert_code/core/proxy_setup.py): Go's HTTP client and TLS roots read them from
// the process environment. ALL_PROXY is the original's too, but net/http ignores it.
var ProxyVars = []string{"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR"}
