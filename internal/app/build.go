package app

import (
	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/config"
)

// loadEnv reads trust, configuration and profiles for workDir. trustFlag trusts the
// folder for this run only (--trust).
func loadEnv(workDir string, ov config.Overrides, trustFlag bool) (*agentenv.Env, error) {
	return agentenv.Load(agentenv.Options{WorkDir: workDir, Overrides: ov, Trust: trustFlag, UserAgent: userAgent()})
}

func userAgent() string { return "albert-code/" + Version() }
