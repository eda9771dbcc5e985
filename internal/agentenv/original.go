package agentenv

import (
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/migrate"
)

// originalFiles imports the original albert-code's sessions on the first run in a
// home that has them, and returns what to tell the user. (Its .env proxies are
// exported by the app before anything connects; its other files are read in place.)
func originalFiles(cfg *config.Config) []string {
	return migrate.FirstRun(cfg.Home, cfg.Session.Dir)
}
