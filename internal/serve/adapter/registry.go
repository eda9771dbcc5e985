// Package adapter finds the CLI agent adapter a setting names: a built-in (claude,
// codex, pi, albert-code, each in its package below) or a declarative TOML file.
package adapter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/albertcode"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/codex"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/declarative"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/pi"
)

// builtins makes each built-in adapter for a binary (empty: the agent's usual name).
var builtins = map[string]func(binary string) cli.Adapter{
	"claude":      func(b string) cli.Adapter { return &claude.Adapter{Binary: b} },
	"codex":       func(b string) cli.Adapter { return &codex.Adapter{Binary: b} },
	"pi":          func(b string) cli.Adapter { return &pi.Adapter{Binary: b} },
	"albert-code": func(b string) cli.Adapter { return &albertcode.Adapter{Binary: b} },
}

// BuiltinNames lists the built-in CLI adapters, sorted.
func BuiltinNames() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Resolve finds the adapter that spec names: a built-in name, or the path of a TOML
// adapter file (it ends in .toml or holds a "/"). binary overrides the program the
// adapter runs; empty keeps its own.
func Resolve(spec, binary string) (cli.Adapter, error) {
	if strings.HasSuffix(spec, ".toml") || strings.ContainsRune(spec, filepath.Separator) {
		d, err := declarative.LoadFile(spec)
		if err != nil {
			return nil, err
		}
		if binary != "" {
			d.SetBinary(binary)
		}
		return d, nil
	}
	if mk, ok := builtins[spec]; ok {
		return mk(binary), nil
	}
	return nil, fmt.Errorf("adapter %q: not a built-in adapter (%s) nor a .toml adapter file",
		spec, strings.Join(BuiltinNames(), ", "))
}
