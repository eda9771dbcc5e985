package adapter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// builtins makes each built-in adapter for a binary (empty: the agent's usual name).
var builtins = map[string]func(binary string) Adapter{
	"claude":      func(b string) Adapter { return &Claude{Binary: b} },
	"codex":       func(b string) Adapter { return &Codex{Binary: b} },
	"pi":          func(b string) Adapter { return &Pi{Binary: b} },
	"albert-code": func(b string) Adapter { return &AlbertCode{Binary: b} },
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
func Resolve(spec, binary string) (Adapter, error) {
	if strings.HasSuffix(spec, ".toml") || strings.ContainsRune(spec, filepath.Separator) {
		d, err := LoadFile(spec)
		if err != nil {
			return nil, err
		}
		if binary != "" {
			d.binary = binary
		}
		return d, nil
	}
	if mk, ok := builtins[spec]; ok {
		return mk(binary), nil
	}
	return nil, fmt.Errorf("adapter %q: not a built-in adapter (%s) nor a .toml adapter file",
		spec, strings.Join(BuiltinNames(), ", "))
}
