package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/adapter"
	"github.com/etalab-ia/albert-code/internal/serve/problems"
)

// System is what Validate asks of the machine, so tests need none.
type System struct {
	// LookPath finds a program (exec.LookPath).
	LookPath func(string) (string, error)
	// IsDir reports whether path is an existing folder.
	IsDir func(path string) bool
	// AdapterModels are the models the adapter offers, used when
	// ALBERT_CODE_AVAILABLE_MODELS is empty.
	AdapterModels []string
}

// Load parses src and validates the result: every problem at once, or none.
func Load(src Source, sys System) (Config, []string, error) {
	c, warnings, ps := Parse(src)
	ps = append(ps, c.Validate(sys, ps)...)
	if len(ps) > 0 {
		return c, warnings, Refusal(ps)
	}
	return c, warnings, nil
}

// Validate checks that every mode switched on can work. Settings already in
// unreadable (a Parse problem) are not checked again.
func (c *Config) Validate(sys System, unreadable problems.List) problems.List {
	bad := map[string]bool{}
	for _, p := range unreadable {
		bad[p.Where] = true
	}
	ok := func(suffix string) bool { return !bad[c.Source(suffix)] }
	var ps problems.List
	add := func(suffix, format string, a ...any) {
		ps = append(ps, problems.Problem{Where: c.Source(suffix), Message: fmt.Sprintf(format, a...)})
	}
	on := false
	for _, m := range Modes {
		on = on || c.Enabled(m)
	}
	if !on && ok("API_MODE") && ok("MCP_MODE") && ok("TELEGRAM_MODE") && ok("CRON_MODE") {
		add("API_MODE", "no mode is on: set ALBERT_CODE_API_MODE=1 or ALBERT_CODE_MCP_MODE=1 (or pass --api, --mcp)")
	}
	if c.Telegram.Enabled && !c.API.Enabled && ok("TELEGRAM_MODE_TOKEN") && !validBotToken(c.Telegram.Token) {
		if c.Telegram.Token == "" {
			add("TELEGRAM_MODE_TOKEN", "the telegram mode needs the bot's token: ask @BotFather for one and set ALBERT_CODE_TELEGRAM_MODE_TOKEN")
		} else {
			add("TELEGRAM_MODE_TOKEN", "the value is not a bot token (want digits, a colon, then letters, digits, - or _, as @BotFather gives)")
		}
	}
	if c.API.Enabled && len(c.AvailableModels) == 0 && len(sys.AdapterModels) == 0 {
		add("AVAILABLE_MODELS", "the API needs models to offer on /v1/models and the %s adapter lists none: set ALBERT_CODE_AVAILABLE_MODELS=model-a,model-b", c.Adapter)
	}
	if c.MCP.Enabled && ok("MCP_MODE_TOKEN") {
		for _, t := range c.MCP.Tokens {
			if slices.Contains(c.API.Tokens, t) {
				add("MCP_MODE_TOKEN", "a token of the MCP server is also a token of the API: give MCP its own, so an MCP client cannot drive /run and /files")
				break
			}
		}
	}
	if ok("ADAPTER") {
		ps = append(ps, c.checkAdapter(sys)...)
	}
	if ok("WORKSPACE") && (c.API.Enabled || c.MCP.Enabled || c.Telegram.Enabled) && sys.IsDir != nil && !sys.IsDir(c.Workspace) {
		add("WORKSPACE", "%s is not a folder: create it, or set ALBERT_CODE_WORKSPACE to the folder to serve", c.Workspace)
	}
	return ps
}

// checkAdapter checks that the adapter is known and its program installed. An
// adapter file is read, and its own program checked, when the adapter is loaded.
func (c *Config) checkAdapter(sys System) problems.List {
	var ps problems.List
	name := c.Adapter
	isFile := strings.HasSuffix(name, ".toml") || strings.ContainsRune(name, filepath.Separator)
	builtin := slices.Contains(adapter.BuiltinNames(), name)
	switch {
	case name == DefaultAdapter || isFile:
		return nil
	case !builtin:
		return problems.List{{Where: c.Source("ADAPTER"), Message: fmt.Sprintf("%q is not an adapter: want %s, %s, or the path of a .toml adapter file",
			name, DefaultAdapter, strings.Join(adapter.BuiltinNames(), ", "))}}
	}
	binary, from := name, c.Source("ADAPTER")
	if c.AgentBinary != "" {
		binary, from = c.AgentBinary, c.Source("AGENT_BINARY")
	}
	if sys.LookPath != nil {
		if _, err := sys.LookPath(binary); err != nil {
			ps = append(ps, problems.Problem{Where: from, Message: fmt.Sprintf("the %s adapter runs %q, which is not found (%v): install it, or set ALBERT_CODE_AGENT_BINARY to its path",
				name, binary, err)})
		}
	}
	return ps
}

// validBotToken checks the shape of a token from @BotFather ("123456:ABC-def_1"),
// so a typo is caught at start-up rather than by a 401 in the poll loop; it also
// keeps the token, which goes into URL paths, free of "/" and "?".
func validBotToken(t string) bool {
	id, secret, ok := strings.Cut(t, ":")
	if !ok || id == "" || secret == "" {
		return false
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return false
		}
	}
	for _, r := range secret {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
