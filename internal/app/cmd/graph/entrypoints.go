package graph

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/query"
)

// EntryPointsOptions are `graph entrypoints`'s.
type EntryPointsOptions struct {
	f    *cmdutil.Factory
	Repo string
	JSON bool
}

// NewCmdEntryPoints is `graph entrypoints`; runF replaces the listing.
func NewCmdEntryPoints(f *cmdutil.Factory, runF func(*EntryPointsOptions) error) *cobra.Command {
	opts := &EntryPointsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "entrypoints",
		Short: "List where execution enters the code: main, init, tests, and exported functions nothing calls",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Repo = repoFlag(cmd)
			if runF != nil {
				return runF(opts)
			}
			return entryPointsRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func entryPointsRun(ctx context.Context, opts *EntryPointsOptions) error {
	_, st, err := openRepoIndex(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	defer st.Close()
	a, err := query.EntryPoints(ctx, st)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.f.IO.Out, a)
	}
	return printEntryPoints(opts.f.IO.Out, a)
}

func printEntryPoints(w io.Writer, a *query.Answer) error {
	fmt.Fprintf(w, "%d entry point(s), %s (%s)\n", len(a.Items), a.Certainty, a.Why)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, it := range a.Items {
		fmt.Fprintf(tw, "%s:%d\t%s\t%s\n", it.File, it.Line, it.QName, it.Why)
	}
	return tw.Flush()
}
