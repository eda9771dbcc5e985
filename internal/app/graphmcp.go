package app

import (
	"context"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/mcpserver"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

func newGraphMCPCmd(repo *string) *cobra.Command {
	var profile string
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
			name := profile
			if !cmd.Flags().Changed("profile") {
				name = os.Getenv(mcpserver.ProfileEnv)
			}
			p, err := mcpserver.ParseProfile(name)
			if err != nil {
				return usageError("%v", err)
			}
			root, err := graphRoot(*repo)
			if err != nil {
				return err
			}
			if st, err := os.Stat(root); err != nil || !st.IsDir() {
				return usageError("graph mcp %s: not a directory", root)
			}
			var vectors query.VectorLeg
			if path, err := graphDBPath(root, true); err == nil {
				leg, closeLeg := vectorLeg(root, path)
				defer closeLeg()
				vectors = leg.AsLeg()
			}
			// The server keeps the index open and the tree watched until it ends.
			life, end := context.WithCancel(cmd.Context())
			defer end()
			srv := mcpserver.New(mcpserver.Config{
				Lifetime:  life,
				Vectors:   vectors,
				Root:      root,
				IndexPath: func(create bool) (string, error) { return graphDBPath(root, create) },
				Profile:   p,
				Index:     index.Options{Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract},
				Version:   Version(),
			})
			return srv.Run(cmd.Context(), &mcp.StdioTransport{})
		},
	}
	cmd.Flags().StringVar(&profile, "profile", "full", "tools to list: core or full")
	return cmd
}
