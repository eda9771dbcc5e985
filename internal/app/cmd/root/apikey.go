package root

import (
	"os"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/tui/firstrun"
)

// saveAPIKey is --api-key: the key of the active model's provider goes into
// <home>/.env, where the setup screen writes it (mode 0600, other lines kept),
// and into this process's environment for the run it starts.
func saveAPIKey(fac *cmdutil.Factory, ws agentWorkspace, key string) error {
	ov := ws.overrides
	ov.EnabledTools, ov.DisabledTools = nil, nil
	e, err := fac.LoadEnv(ws.dir, ov, ws.trust)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	defer e.Close()
	m, err := e.Config.ActiveModel()
	if err != nil {
		return cmdutil.UsageError("--api-key: %v", err)
	}
	p, err := e.Config.Provider(m.Provider)
	if err != nil {
		return cmdutil.UsageError("--api-key: %v", err)
	}
	if p.APIKeyEnv == "" {
		return cmdutil.UsageError("--api-key: the provider %s of model %s takes no key (no api_key_env in its configuration)", p.Name, m.Name)
	}
	envFile := filepath.Join(e.Config.Home, ".env")
	if err := firstrun.Save(envFile, "", firstrun.Choice{KeyEnv: p.APIKeyEnv, Key: key}); err != nil {
		return cmdutil.UsageError("--api-key: %v", err)
	}
	return os.Setenv(p.APIKeyEnv, key)
}
