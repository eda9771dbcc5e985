package graph

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
)

// CommunitiesOptions are `graph communities`'s.
type CommunitiesOptions struct {
	f    *cmdutil.Factory
	Repo string
	// Symbol, when given, shows its community only.
	Symbol string
	query.CommunityOptions
	JSON bool
}

// NewCmdCommunities is `graph communities [SYMBOL]`; runF replaces the grouping.
func NewCmdCommunities(f *cmdutil.Factory, runF func(*CommunitiesOptions) error) *cobra.Command {
	opts := &CommunitiesOptions{f: f}
	cmd := &cobra.Command{
		Use:   "communities [SYMBOL]",
		Short: "Group the symbols into communities (Louvain with a repair pass); with SYMBOL, show its community",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Repo = repoFlag(cmd)
			if len(args) == 1 {
				opts.Symbol = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return communitiesRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().Float64Var(&opts.Resolution, "resolution", 1, "Louvain resolution γ: higher gives smaller communities")
	cmd.Flags().IntVar(&opts.Offset, "offset", 0, "skip this many communities")
	cmd.Flags().IntVar(&opts.Limit, "limit", 20, "list at most this many communities")
	cmd.Flags().IntVar(&opts.Members, "members", 0, "members shown per community (default 10, 200 for a symbol's community)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func communitiesRun(ctx context.Context, opts *CommunitiesOptions) error {
	root, st, err := openRepoIndex(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	defer st.Close()
	a, err := query.Communities(ctx, st, opts.Symbol, opts.CommunityOptions)
	if err != nil {
		return questionError(err)
	}
	fresh, ferr := index.CheckFreshness(ctx, root, st, index.Limits{})
	w := opts.f.IO.Out
	if opts.JSON {
		out := struct {
			*query.CommunitiesAnswer
			Freshness *index.Freshness `json:"freshness,omitempty"`
		}{CommunitiesAnswer: a}
		if ferr == nil {
			out.Freshness = &fresh
		}
		return cmdutil.PrintJSON(w, out)
	}
	if ferr == nil && fresh.Status != "fresh" {
		fmt.Fprintf(w, "index is %s: %d file(s) changed since it was built; run albert-code graph index\n", fresh.Status, len(fresh.Dirty))
	}
	return printCommunities(w, a, opts.Symbol)
}

func printCommunities(w io.Writer, a *query.CommunitiesAnswer, symbol string) error {
	fmt.Fprintf(w, "%d communities and %d lone symbols over %d symbols and %d edges; modularity %.3f at resolution %g (%s)\n",
		a.Count, a.Singletons, a.Nodes, a.Edges, a.Modularity, a.Resolution, a.Certainty)
	if symbol != "" && len(a.Communities) == 0 {
		fmt.Fprintln(w, a.Why)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range a.Communities {
		fmt.Fprintf(tw, "\n#%d\t%s\t%d members\n", c.ID, c.Name, c.Size)
		for _, m := range c.Members {
			fmt.Fprintf(tw, "\t%s\t%s:%d\n", m.QName, m.File, m.Line)
		}
		if len(c.Members) < c.Size {
			fmt.Fprintf(tw, "\t… %d more\t\n", c.Size-len(c.Members))
		}
	}
	if a.Truncated {
		fmt.Fprintf(tw, "\nmore communities: --offset %d\n", a.NextOffset)
	}
	return tw.Flush()
}
