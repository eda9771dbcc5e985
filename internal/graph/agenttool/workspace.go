package agenttool

import (
	"github.com/etalab-ia/albert-code/internal/graph/embed"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// WorkspaceOptions are what ForWorkspace leaves to the caller.
type WorkspaceOptions struct {
	// Embeddings adds the embeddings leg to search; the zero value leaves search
	// to BM25.
	Embeddings embed.Config
}

// ForWorkspace is the code_graph tool over the folder root as the agent and
// serve's MCP server offer it. Its index is the one the graph commands keep for
// root (DefaultIndexPath), so they all share one index per folder. Go code is
// type-checked with cgo off: the model may call this read-only tool in an
// untrusted folder, and type-checking compiles nothing of the repository's own
// code but its cgo C files (those files fall back to tree-sitter). The
// embeddings cache is opened on the first search: the tool may never search,
// and opening it creates the index folder.
func ForWorkspace(root string, opts WorkspaceOptions) *Tool {
	goOpts := golang.DefaultOptions()
	goOpts.Env = append(goOpts.Env, "CGO_ENABLED=0")
	return New(Config{
		Root:      root,
		IndexPath: func(create bool) (string, error) { return DefaultIndexPath(root, create) },
		Index:     index.Options{Go: goOpts, Extract: treesitter.Extractor{}.Extract},
		Vectors:   opts.Embeddings.Lazy(func() (string, error) { return DefaultIndexPath(root, true) }),
	})
}
