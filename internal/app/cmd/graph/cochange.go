package graph

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/cochange"
)

// CoChangeOptions are `graph cochange`'s.
type CoChangeOptions struct {
	f    *cmdutil.Factory
	Repo string
	File string
	// Commits is how many recent commits to read.
	Commits int
	JSON    bool
}

// NewCmdCoChange is `graph cochange FILE`; runF replaces the reading of history.
func NewCmdCoChange(f *cmdutil.Factory, runF func(*CoChangeOptions) error) *cobra.Command {
	opts := &CoChangeOptions{f: f}
	cmd := &cobra.Command{
		Use:   "cochange FILE",
		Short: "List the files that git history shows changing together with FILE",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Repo, opts.File = repoFlag(cmd), args[0]
			if runF != nil {
				return runF(opts)
			}
			return coChangeRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVar(&opts.Commits, "commits", 1000, "how many recent commits to read")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func coChangeRun(ctx context.Context, opts *CoChangeOptions) error {
	root, err := repoRoot(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	file := opts.File
	if abs, err := filepath.Abs(file); err == nil {
		if rel, err := filepath.Rel(root, abs); err == nil && filepath.IsLocal(rel) {
			file = rel
		}
	}
	res, err := cochange.Compute(ctx, root, file, opts.Commits)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.f.IO.Out, res)
	}
	return printCoChange(opts.f.IO.Out, res)
}

func printCoChange(w io.Writer, res *cochange.Result) error {
	fmt.Fprintf(w, "%s changed in %d of the last %d commits (%d bulk commits left out)\n", res.File, res.Commits, res.Read, res.Skipped)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, p := range res.Partners {
		fmt.Fprintf(tw, "%s\t%d together\t%.0f%% of its changes\n", p.File, p.Count, 100*p.Coupling)
	}
	return tw.Flush()
}
