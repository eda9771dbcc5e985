// Package config is the one source of truth for albert-code's settings. It merges, in
// rising priority, built-in defaults, the global config file, the nearest project file,
// ALBERT_CODE_* environment variables and command-line overrides; it remembers which
// layer set every value so `albert-code config show` can answer "why is it this?";
// and it resolves models, providers and API keys with errors that say what to fix.
//
// A key is written in three places: its field of Config (types.go and the table's
// own file), its pointer in the file schema (layer.go), and one key(...) line in the
// list of steps that merges a layer (Config.apply in merge.go, or the table's apply
// function), which names it once, beside its check. A key that /config edits is also
// one entry of Settings.
//
// The reference for users is docs/configuration.md.
package config
