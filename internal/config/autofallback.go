package config

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// autoFallbackLine matches a top-level auto_fallback_enabled assignment.
var autoFallbackLine = regexp.MustCompile(`^\s*auto_fallback_enabled\s*=`)

// SaveAutoFallback sets auto_fallback_enabled in the user's global config file, as
// the original's /fallback did, and returns the file's path. The rest of the file is
// kept as written. It refuses when another file or the environment sets the key,
// since the global file would not win: the message names where to change it.
func (c *Config) SaveAutoFallback(on bool) (string, error) {
	path := c.globalFile
	if path == "" {
		return "", fmt.Errorf("auto_fallback_enabled: no global config file is known for this run")
	}
	// The original's config.toml lies below the global file, which wins over it.
	if src, ok := c.Source("auto_fallback_enabled"); ok && src.Kind != SourceDefault &&
		(src.Kind != SourceFile || (src.Name != path && src.Name != OriginalConfigFile(c.Home))) {
		return "", fmt.Errorf("auto_fallback_enabled is set in %s, which wins over %s: change it there", src, path)
	}
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	line := fmt.Sprintf("auto_fallback_enabled = %t", on)
	lines := strings.Split(string(data), "\n")
	done := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "[") {
			break // past the top level: tables follow
		}
		if autoFallbackLine.MatchString(l) {
			lines[i], done = line, true
			break
		}
	}
	if !done {
		// A top-level key must come before the first table.
		lines = append([]string{line}, lines...)
	}
	out := strings.Join(lines, "\n")
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(out), 0o644); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return path, nil
}
