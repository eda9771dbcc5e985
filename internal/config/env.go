package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Environment variables read by Load. Lists are comma-separated.
const (
	EnvHome              = "ALBERT_CODE_HOME"
	EnvModel             = "ALBERT_CODE_MODEL"
	EnvBaseURL           = "ALBERT_CODE_BASE_URL"
	EnvAgent             = "ALBERT_CODE_AGENT"
	EnvEnabledTools      = "ALBERT_CODE_ENABLED_TOOLS"
	EnvDisabledTools     = "ALBERT_CODE_DISABLED_TOOLS"
	EnvContextWarning    = "ALBERT_CODE_CONTEXT_WARNING"
	EnvCompactionThresh  = "ALBERT_CODE_COMPACTION_THRESHOLD"
	EnvSessionDir        = "ALBERT_CODE_SESSION_DIR"
	EnvSessionEnabled    = "ALBERT_CODE_SESSION_ENABLED"
	EnvWebSearchURL      = "ALBERT_CODE_WEB_SEARCH_URL"
	EnvEmbeddingsModel   = "ALBERT_CODE_GRAPH_EMBEDDINGS_MODEL"
	EnvBashTimeout       = "ALBERT_CODE_BASH_TIMEOUT"
	envXDGConfigHome     = "XDG_CONFIG_HOME"
	appDirName           = "albert-code"
	projectFileName      = ".albert-code.toml"
	vibeProjectFileName  = ".vibe.toml"
	defaultHomeDirName   = ".albert-code"
	defaultSessionSubdir = "sessions"
)

// envVar maps one variable onto one key of a layer.
type envVar struct {
	name string
	key  string
	set  func(l *layer, v string) error
}

// envVars lists the settings variables in the order `config show` documents them.
// ALBERT_CODE_HOME and ALBERT_CODE_BASE_URL are handled apart: the first decides where
// the files are, the second applies to whichever model ends up active.
var envVars = []envVar{
	{EnvModel, "model", func(l *layer, v string) error { l.Model = &v; return nil }},
	{EnvAgent, "agent", func(l *layer, v string) error { l.Agent = &v; return nil }},
	{EnvEnabledTools, "enabled_tools", func(l *layer, v string) error { ps := splitList(v); l.EnabledTools = &ps; return nil }},
	{EnvDisabledTools, "disabled_tools", func(l *layer, v string) error { ps := splitList(v); l.DisabledTools = &ps; return nil }},
	{EnvContextWarning, "context_warning", func(l *layer, v string) error {
		f, err := parseFloat(v)
		l.ContextWarning = &f
		return err
	}},
	{EnvCompactionThresh, "compaction.threshold", func(l *layer, v string) error {
		f, err := parseFloat(v)
		l.Compaction = &compactionLayer{Threshold: &f}
		return err
	}},
	{EnvSessionDir, "session.dir", func(l *layer, v string) error { sessionOf(l).Dir = &v; return nil }},
	{EnvSessionEnabled, "session.enabled", func(l *layer, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("expected true or false, got %q", v)
		}
		sessionOf(l).Enabled = &b
		return nil
	}},
	{EnvWebSearchURL, "web_search.base_url", func(l *layer, v string) error { l.WebSearch = &webSearchLayer{BaseURL: &v}; return nil }},
	{EnvEmbeddingsModel, "graph.embeddings_model", func(l *layer, v string) error {
		l.Graph = &graphLayer{EmbeddingsModel: &v}
		return nil
	}},
	{EnvBashTimeout, "bash.timeout", func(l *layer, v string) error {
		l.Bash = &bashLayer{Timeout: &v}
		return nil
	}},
	{EnvRateLimits, "rate_limits.enabled", setRateLimitsEnv},
	{EnvSandbox, "sandbox.mode", func(l *layer, v string) error { l.Sandbox = &sandboxLayer{Mode: &v}; return nil }},
}

// EnvVars returns the names of every environment variable Load reads, for help texts.
func EnvVars() []string {
	names := []string{EnvHome, EnvBaseURL}
	for _, e := range envVars {
		names = append(names, e.name)
	}
	return names
}

// envLayer builds the environment's layer. Each key's origin is its own variable, so
// an error or `config show` names the variable to change.
func envLayer(lookup func(string) (string, bool)) (*layer, origin, error) {
	l := &layer{}
	names := map[string]string{}
	for _, e := range envVars {
		v, ok := lookup(e.name)
		if !ok || v == "" {
			continue
		}
		names[e.key] = e.name
		if err := e.set(l, v); err != nil {
			return nil, nil, fieldError(constOrigin(Source{Kind: SourceEnv, Name: e.name}), e.key, e.key, err.Error(), "")
		}
	}
	o := func(raw string) Source { return Source{Kind: SourceEnv, Name: names[raw]} }
	return l, o, nil
}

func sessionOf(l *layer) *sessionLayer {
	if l.Session == nil {
		l.Session = &sessionLayer{}
	}
	return l.Session
}

func parseFloat(v string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, fmt.Errorf("expected a number, got %q", v)
	}
	return f, nil
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
