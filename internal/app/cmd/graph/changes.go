package graph

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/changes"
)

// ChangesOptions are `graph changes`'s.
type ChangesOptions struct {
	f    *cmdutil.Factory
	Repo string
	// Base is the revision the working tree is compared with; empty is HEAD.
	Base string
	JSON bool
}

// NewCmdChanges is `graph changes`; runF replaces the mapping.
func NewCmdChanges(f *cmdutil.Factory, runF func(*ChangesOptions) error) *cobra.Command {
	opts := &ChangesOptions{f: f}
	cmd := &cobra.Command{
		Use:   "changes",
		Short: "Map a git diff onto the definitions it touches, with what depends on each (a heuristic risk)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Repo = repoFlag(cmd)
			if runF != nil {
				return runF(opts)
			}
			return changesRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Base, "base", "", "compare the working tree with this revision (default HEAD)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func changesRun(ctx context.Context, opts *ChangesOptions) error {
	root, st, err := openRepoIndex(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	defer st.Close()
	hunks, err := changes.Diff(ctx, root, opts.Base)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	rep, err := changes.Map(ctx, st, opts.Base, hunks)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.f.IO.Out, rep)
	}
	return printChanges(opts.f.IO.Out, rep)
}

func printChanges(w io.Writer, rep *changes.Report) error {
	fmt.Fprintf(w, "%d definition(s) touched in %d file(s), risk %.2f (%s)\n", len(rep.Changed), len(rep.Files), rep.RiskScore, rep.Risk)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range rep.Changed {
		fmt.Fprintf(tw, "%.2f %s\t%s:%d\t%s\t%d dependent(s)\n", c.RiskScore, c.Risk, c.File, c.Line, c.QName, c.Dependents)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range rep.Communities {
		fmt.Fprintf(w, "community %d %s: %d changed, %d dependent(s)\n", c.ID, c.Name, c.Changed, c.Dependents)
	}
	for _, p := range rep.Processes {
		fmt.Fprintf(w, "process %s (%s) reaches %s\n", p.Entry, p.Why, strings.Join(p.Reaches, ", "))
	}
	if rep.ProcessesCount > len(rep.Processes) {
		fmt.Fprintf(w, "... and %d more processes (--json)\n", rep.ProcessesCount-len(rep.Processes))
	}
	if len(rep.Unmapped) > 0 {
		fmt.Fprintf(w, "not in the index: %s\n", strings.Join(rep.Unmapped, ", "))
	}
	fmt.Fprintln(w, rep.Heuristic)
	return nil
}
