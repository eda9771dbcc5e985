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
	rec := func(key string) { c.sources["sandbox."+key] = o("sandbox." + key) }
	if s.Mode != nil {
		m := strings.ToLower(strings.TrimSpace(*s.Mode))
		if m != "" && m != "on" && m != "off" && m != "read-only" && m != "workspace-write" {
			return fieldError(o, "sandbox.mode", "sandbox.mode", fmt.Sprintf("invalid sandbox mode %q", *s.Mode), "want \"on\" or \"off\"")
		}
		if m == "on" || m == "read-only" || m == "workspace-write" {
			m = ""
		}
		c.Sandbox.Mode = m
		rec("mode")
	}
	if s.Backend != nil {
		b := strings.ToLower(*s.Backend)
		if b != "" && b != "auto" && b != "landlock" && b != "bubblewrap" && b != "seatbelt" {
			return fieldError(o, "sandbox.backend", "sandbox.backend", fmt.Sprintf("invalid sandbox backend %q", *s.Backend), "want auto, landlock, bubblewrap or seatbelt")
		}
		if b == "auto" {
			b = ""
		}
		c.Sandbox.Backend = b
		rec("backend")
	}
	if s.Network != nil {
		n := strings.ToLower(*s.Network)
		if n != "" && n != "auto" && n != "on" && n != "off" {
			return fieldError(o, "sandbox.network", "sandbox.network", fmt.Sprintf("invalid sandbox network %q", *s.Network), "want auto, on or off")
		}
		c.Sandbox.Network = n
		rec("network")
	}
	if s.Writable != nil {
		c.Sandbox.Writable = *s.Writable
		rec("writable")
	}
	if s.DenyRead != nil {
		c.Sandbox.DenyRead = *s.DenyRead
		rec("deny_read")
	}
	if s.EnvPassthrough != nil {
		c.Sandbox.EnvPassthrough = *s.EnvPassthrough
		rec("env_passthrough")
	}
	return nil
}
