package config

import (
	"fmt"
	"strconv"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// SaveAutoFallback sets auto_fallback_enabled in the user's global config file, as
// the original's /fallback did, and returns the file's path. The file is edited in
// place as /config set edits it (comments, order and other keys kept; a file that
// does not load refused). It refuses when another file or the environment sets the
// key, since the global file would not win: the message names where to change it.
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
	err := editFile(path, func(data []byte) ([]byte, error) {
		return tomlfile.SetKey(path, data, []string{"auto_fallback_enabled"}, strconv.FormatBool(on))
	})
	if err != nil {
		return "", err
	}
	return path, nil
}
