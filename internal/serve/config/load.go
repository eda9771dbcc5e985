package config

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/editdist"
	"github.com/etalab-ia/albert-code/internal/serve/problems"
)

// Source is where Parse reads from.
type Source struct {
	// LookupEnv reads one variable (os.LookupEnv); nil reads none.
	LookupEnv func(string) (string, bool)
	// Environ lists the environment (os.Environ), to warn about misspelt names;
	// nil skips that check.
	Environ []string
	// Flags holds the flags the user gave, by name without dashes; they win over
	// the environment.
	Flags map[string]string
}

// OS is the process's environment, without flags.
func OS() Source { return Source{LookupEnv: os.LookupEnv, Environ: os.Environ()} }

// minTokenLength: judgement, a token shorter than this is guessable; 16 random
// characters are beyond brute force over HTTP.
const minTokenLength = 16

// Parse reads the configuration. Values that cannot be read are problems; the
// returned warnings (an original name overridden by ours, a misspelt name, an API
// without a token) let the server start.
func Parse(src Source) (Config, []string, problems.List) {
	c := Config{origin: map[string]string{}}
	var warnings []string
	var ps problems.List
	for _, s := range Settings {
		v, from, warn := lookup(s, src)
		warnings = append(warnings, warn...)
		if from == "" {
			v, from = s.Default, s.Var()
		}
		c.origin[s.Suffix] = from
		if v == "" {
			continue // unset, no default: the zero value
		}
		if err := s.set(&c, v); err != nil {
			shown := fmt.Sprintf("%q", v)
			if s.Secret {
				shown = "the value"
			}
			ps = append(ps, problems.Problem{Where: from, Message: shown + ": " + err.Error()})
		}
	}
	if c.MCP.Enabled && c.MCP.Port == 0 && !c.API.Enabled {
		c.MCP.Port = DefaultMCPPort
	}
	warnings = append(warnings, c.advice()...)
	warnings = append(warnings, unknownNames(src.Environ)...)
	return c, warnings, ps
}

// lookup finds a setting's value: its flag, else the first of its variable and
// aliases that is set and not empty. Other names set to another value are
// reported: the first wins, so ALBERT_CODE_X overrides AICODEBOX_X.
func lookup(s *Setting, src Source) (value, from string, warnings []string) {
	if v, ok := src.Flags[s.Flag]; ok {
		return v, "--" + s.Flag, nil
	}
	if src.LookupEnv == nil {
		return "", "", nil
	}
	for _, name := range append([]string{s.Var()}, s.Aliases()...) {
		v, ok := src.LookupEnv(name)
		if !ok || v == "" {
			continue
		}
		if from == "" {
			value, from = v, name
			continue
		}
		if v != value {
			what := fmt.Sprintf("%s=%q", from, value)
			if s.Secret {
				what = from
			}
			warnings = append(warnings, fmt.Sprintf("%s and %s are both set and differ: using %s", from, name, what))
		}
	}
	return value, from, warnings
}

// advice warns about what works but is likely a mistake.
func (c *Config) advice() []string {
	var w []string
	if c.API.Enabled && len(c.API.Tokens) == 0 {
		w = append(w, fmt.Sprintf("%s is empty: anyone who reaches port %d can run the agent; set a token", c.Source("API_MODE_TOKEN"), c.API.Port))
	}
	if c.MCP.Enabled && len(c.MCP.Tokens) == 0 {
		w = append(w, c.Source("MCP_MODE_TOKEN")+" is empty: anyone who reaches the MCP server can run the agent; set a token")
	}
	for _, t := range slices.Concat(c.API.Tokens, c.MCP.Tokens) {
		if len(t) < minTokenLength {
			w = append(w, fmt.Sprintf("a bearer token is shorter than %d characters: use a long random one (openssl rand -hex 32)", minTokenLength))
			break
		}
	}
	if c.Adapter == DefaultAdapter && c.AgentBinary != "" {
		w = append(w, c.Source("AGENT_BINARY")+" has no effect with the native adapter, which runs in-process")
	}
	return w
}

// Source names where a setting came from: the flag or variable the user set, or
// our variable when the default applies.
func (c *Config) Source(suffix string) string {
	if from := c.origin[suffix]; from != "" {
		return from
	}
	return prefix + suffix
}

// unknownNames warns about variables that look like ours but are not: a misspelt
// knob of a mode, or an original name this program does not read.
func unknownNames(environ []string) []string {
	known := map[string]bool{}
	var candidates []string
	for _, s := range Settings {
		for _, n := range append([]string{s.Var()}, s.Aliases()...) {
			known[n] = true
		}
		candidates = append(candidates, s.Var())
	}
	var w []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if reason, ok := noEffect[name]; ok {
			w = append(w, name+" has no effect: "+reason)
			continue
		}
		if known[name] || !looksOurs(name) {
			continue
		}
		msg := name + " is not a setting of albert-code serve"
		if near := nearest(name, candidates); near != "" {
			msg += ": did you mean " + near + "?"
		}
		w = append(w, msg)
	}
	return w
}

// looksOurs: a mode variable of ours, or any AICODEBOX_ name. Other ALBERT_CODE_
// names belong to the agent's own configuration.
func looksOurs(name string) bool {
	if strings.HasPrefix(name, "AICODEBOX_") {
		return true
	}
	for _, m := range Modes {
		if strings.HasPrefix(name, prefix+string(m)+"_MODE") {
			return true
		}
	}
	return false
}

func nearest(name string, candidates []string) string {
	name = strings.Replace(name, "AICODEBOX_", prefix, 1)
	best, bestDist := "", 4 // judgement: up to three edits is a typo, more is another name
	for _, c := range candidates {
		if d := editdist.Distance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}
