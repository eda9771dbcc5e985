package agenttool

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// DefaultIndexPath is where a repository's index lives: inside it, in
// .albert-code/graph/, or in the user's cache when the repository is read-only.
// With create, the folder is made; without, an existing index is looked for (the
// path returned then may not exist). The graph commands, the agent's code_graph
// and the serve MCP server's all use it, so they share one index per folder.
func DefaultIndexPath(root string, create bool) (string, error) {
	localDir := filepath.Join(root, ".albert-code", "graph")
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256([]byte(root))
	cacheDir := filepath.Join(cache, "albert-code", "graph", hex.EncodeToString(sum[:8]))
	if !create {
		for _, dir := range []string{localDir, cacheDir} {
			if _, err := os.Stat(filepath.Join(dir, "graph.db")); err == nil {
				return filepath.Join(dir, "graph.db"), nil
			}
		}
		return filepath.Join(localDir, "graph.db"), nil
	}
	if err := os.MkdirAll(localDir, 0o755); err == nil {
		// The index is a cache of the tree, never something to commit.
		_ = os.WriteFile(filepath.Join(localDir, ".gitignore"), []byte("*\n"), 0o644)
		return filepath.Join(localDir, "graph.db"), nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("no writable place for the index of %s: %w", root, err)
	}
	return filepath.Join(cacheDir, "graph.db"), nil
}
