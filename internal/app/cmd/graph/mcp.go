package graph

import (
	"context"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/mcpserver"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// MCPOptions are `graph mcp`'s.
type MCPOptions struct {
	f    *cmdutil.Factory
	Repo string
	// Profile is the tools listed: --profile, else the environment's, else full.
	Profile string
}

// NewCmdMCP is `graph mcp`; runF replaces the server.
func NewCmdMCP(f *cmdutil.Factory, runF func(*MCPOptions) error) *cobra.Command {
	opts := &MCPOptions{f: f}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the graph to an agent over MCP on stdin/stdout",
		Long: `Serve the repository's code graph over the Model Context Protocol (stdio).
The core profile lists health_check, analyze_codebase, search_codebase, get_symbol,
query_graph, detect_changes (and get_impact, get_context when the engine answers
them); the full profile adds one tool per question kind. Both serve the prompts
explore_codebase and review_change_impact. --profile beats ` + mcpserver.ProfileEnv + `,
which beats full.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Repo = repoFlag(cmd)
			if !cmd.Flags().Changed("profile") {
				opts.Profile, _ = f.LookupEnv(mcpserver.ProfileEnv)
			}
			if runF != nil {
				return runF(opts)
			}
			return mcpRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Profile, "profile", "full", "tools to list: core or full")
	return cmd
}

func mcpRun(ctx context.Context, opts *MCPOptions) error {
	p, err := mcpserver.ParseProfile(opts.Profile)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	root, err := repoRoot(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return cmdutil.UsageError("graph mcp %s: not a directory", root)
	}
	var vectors query.VectorLeg
	if path, err := dbPath(root, true); err == nil {
		leg, closeLeg := vectorLeg(opts.f, root, path)
		defer closeLeg()
		vectors = leg.AsLeg()
	}
	// The server keeps the index open and the tree watched until it ends.
	life, end := context.WithCancel(ctx)
	defer end()
	srv := mcpserver.New(mcpserver.Config{
		Lifetime:  life,
		Vectors:   vectors,
		Root:      root,
		IndexPath: func(create bool) (string, error) { return dbPath(root, create) },
		Profile:   p,
		Index:     index.Options{Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract},
		Version:   opts.f.Version,
	})
	return srv.Run(ctx, &mcp.StdioTransport{})
}
