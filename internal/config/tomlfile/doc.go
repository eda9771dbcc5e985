// Package tomlfile decodes hand-written TOML files strictly and reports every problem
// the way a user can act on it: the file, the line and column, the dotted key and,
// for a misspelt key, the closest known one. It also indexes where each key sits so
// that later checks (enum values, unknown references) can point at the same line.
package tomlfile
