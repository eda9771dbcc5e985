package app

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
)

func newGraphCommunitiesCmd(repo *string) *cobra.Command {
	var opt query.CommunityOptions
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "communities [SYMBOL]",
		Short: "Group the symbols into communities (Louvain with a repair pass); with SYMBOL, show its community",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, st, err := openRepoIndex(*repo)
			if err != nil {
				return err
			}
			defer st.Close()
			symbol := ""
			if len(args) == 1 {
				symbol = args[0]
			}
			a, err := query.Communities(cmd.Context(), st, symbol, opt)
			if err != nil {
				return questionError(err)
			}
			fresh, ferr := index.CheckFreshness(cmd.Context(), root, st, index.Limits{})
			if asJSON {
				out := struct {
					*query.CommunitiesAnswer
					Freshness *index.Freshness `json:"freshness,omitempty"`
				}{CommunitiesAnswer: a}
				if ferr == nil {
					out.Freshness = &fresh
				}
				return printJSON(cmd.OutOrStdout(), out)
			}
			w := cmd.OutOrStdout()
			if ferr == nil && fresh.Status != "fresh" {
				fmt.Fprintf(w, "index is %s: %d file(s) changed since it was built; run albert-code graph index\n", fresh.Status, len(fresh.Dirty))
			}
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
		},
	}
	cmd.Flags().Float64Var(&opt.Resolution, "resolution", 1, "Louvain resolution γ: higher gives smaller communities")
	cmd.Flags().IntVar(&opt.Offset, "offset", 0, "skip this many communities")
	cmd.Flags().IntVar(&opt.Limit, "limit", 20, "list at most this many communities")
	cmd.Flags().IntVar(&opt.Members, "members", 0, "members shown per community (default 10, 200 for a symbol's community)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
