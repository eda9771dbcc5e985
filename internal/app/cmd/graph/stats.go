package graph

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// NewCmdSchema is `graph schema`: the index's SQL schema, for graph sql.
func NewCmdSchema(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the SQL schema of the index",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := io.WriteString(f.IO.Out, (*store.Store)(nil).Schema())
			return err
		},
	}
}

// StatsOptions are `graph stats`'s.
type StatsOptions struct {
	f    *cmdutil.Factory
	Repo string
}

// NewCmdStats is `graph stats`; runF replaces the count.
func NewCmdStats(f *cmdutil.Factory, runF func(*StatsOptions) error) *cobra.Command {
	opts := &StatsOptions{f: f}
	return &cobra.Command{
		Use:   "stats",
		Short: "Count what the index holds, and say how fresh it is",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Repo = repoFlag(cmd)
			if runF != nil {
				return runF(opts)
			}
			return statsRun(cmd.Context(), opts)
		},
	}
}

func statsRun(ctx context.Context, opts *StatsOptions) error {
	root, st, err := openRepoIndex(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	defer st.Close()
	stats, err := st.Stats(ctx)
	if err != nil {
		return err
	}
	fresh, ferr := index.CheckFreshness(context.WithoutCancel(ctx), root, st, index.Limits{})
	out := map[string]any{"stats": stats}
	if ferr == nil {
		out["freshness"] = fresh
	}
	return cmdutil.PrintJSON(opts.f.IO.Out, out)
}
