// Package config is the one source of truth for albert-code's settings. It merges, in
// rising priority, built-in defaults, the global config file, the nearest project file,
// ALBERT_CODE_* environment variables and command-line overrides; it remembers which
// layer set every value so `albert-code config show` can answer "why is it this?";
// and it resolves models, providers and API keys with errors that say what to fix.
//
// The reference for users is docs/configuration.md.
package config
