package config

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Sandbox is the [sandbox] table: how commands that tools start are confined. It is
// read from the user's global configuration, the environment and the flags only: a
// project file is written by whoever wrote the repository, and must not be able to
// turn the sandbox off or widen it.
type Sandbox struct {
	// Mode is "" (on: each call's mode decides) or "off".
	Mode string
	// Backend is "", "landlock", "bubblewrap" or "seatbelt".
	Backend string
	// Network is "", "auto", "on" or "off".
	Network string
	// Writable are more folders approved commands may write.
	Writable []string
	// DenyRead are more secret paths no command or file tool may read.
	DenyRead []string
	// EnvPassthrough names variables kept in tools' environment although their
	// names look like secrets.
	EnvPassthrough []string
}

type sandboxLayer struct {
	Mode           *string   `toml:"mode"`
	Backend        *string   `toml:"backend"`
	Network        *string   `toml:"network"`
	Writable       *[]string `toml:"writable"`
	DenyRead       *[]string `toml:"deny_read"`
	EnvPassthrough *[]string `toml:"env_passthrough"`
}

// EnvSandbox turns the sandbox off with "off", as --sandbox off does.
const EnvSandbox = "ALBERT_CODE_SANDBOX"

// fromProjectFile reports whether key comes from a project file, which whoever
// wrote the repository controls.
func fromProjectFile(o origin, key string) bool {
	src := o(key)
	if src.Kind != SourceFile {
		return false
	}
	base := filepath.Base(src.Name)
	return base == projectFileName || base == vibeProjectFileName
}

func (c *Config) applySandbox(s *sandboxLayer, o origin) error {
	if s == nil {
		return nil
	}
	if fromProjectFile(o, "sandbox") {
		return fieldError(o, "sandbox", "sandbox",
			"[sandbox] is not read from a project file, which the repository's authors control",
			"move it to your global config ("+filepath.Join("~", ".config", appDirName, "config.toml")+")")
	}
	return c.runSteps(o,
		key("sandbox.mode", s.Mode, &c.Sandbox.Mode, sandboxMode),
		key("sandbox.backend", s.Backend, &c.Sandbox.Backend, sandboxBackend),
		key("sandbox.network", s.Network, &c.Sandbox.Network, sandboxNetwork),
		key("sandbox.writable", s.Writable, &c.Sandbox.Writable, keep),
		key("sandbox.deny_read", s.DenyRead, &c.Sandbox.DenyRead, keep),
		key("sandbox.env_passthrough", s.EnvPassthrough, &c.Sandbox.EnvPassthrough, keep),
	)
}

// sandboxMode reads mode: "off", or one of the spellings of on (stored as "").
func sandboxMode(v string) (string, error) {
	switch m := strings.ToLower(strings.TrimSpace(v)); m {
	case "off", "":
		return m, nil
	case "on", "read-only", "workspace-write":
		return "", nil
	}
	return "", hinted{fmt.Sprintf("invalid sandbox mode %q", v), "want \"on\" or \"off\""}
}

// sandboxBackend reads backend; auto is stored as "".
func sandboxBackend(v string) (string, error) {
	switch b := strings.ToLower(v); b {
	case "", "landlock", "bubblewrap", "seatbelt":
		return b, nil
	case "auto":
		return "", nil
	}
	return "", hinted{fmt.Sprintf("invalid sandbox backend %q", v), "want auto, landlock, bubblewrap or seatbelt"}
}

func sandboxNetwork(v string) (string, error) {
	switch n := strings.ToLower(v); n {
	case "", "auto", "on", "off":
		return n, nil
	}
	return "", hinted{fmt.Sprintf("invalid sandbox network %q", v), "want auto, on or off"}
}
