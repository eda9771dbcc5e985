package graph

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// graphStatus is `graph status --json`: what the index holds, how fresh it is,
// and what it left out and why.
type graphStatus struct {
	Root      string           `json:"root"`
	Stats     store.Stats      `json:"stats"`
	Freshness *index.Freshness `json:"freshness,omitempty"`
	LeftOut   *index.LeftOut   `json:"left_out,omitempty"`
	// GoLoadError is why the Go module did not load at the last index run: Go
	// answers are then tree-sitter's lower bounds.
	GoLoadError string `json:"go_load_error,omitempty"`
}

// StatusOptions are `graph status`'s.
type StatusOptions struct {
	f    *cmdutil.Factory
	Repo string
	JSON bool
}

// NewCmdStatus is `graph status`; runF replaces the report.
func NewCmdStatus(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{f: f}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Say what the index holds, how fresh it is, and every file it left out with the reason",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Repo = repoFlag(cmd)
			if runF != nil {
				return runF(opts)
			}
			return statusRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the status as JSON")
	return cmd
}

func statusRun(ctx context.Context, opts *StatusOptions) error {
	root, st, err := openRepoIndex(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	defer st.Close()
	out := graphStatus{Root: root}
	if out.Stats, err = st.Stats(ctx); err != nil {
		return err
	}
	if out.LeftOut, err = index.ReadLeftOut(ctx, st); err != nil {
		return err
	}
	if out.GoLoadError, _, err = st.Meta(ctx, golang.MetaLoadError); err != nil {
		return err
	}
	if f, ferr := index.CheckFreshness(context.WithoutCancel(ctx), root, st, index.Limits{}); ferr == nil {
		out.Freshness = &f
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.f.IO.Out, out)
	}
	printStatus(opts.f.IO.Out, out)
	return nil
}

func printStatus(w io.Writer, s graphStatus) {
	fmt.Fprintf(w, "%s: %s, %d definitions, %d edges\n", s.Root, cmdutil.CountOf(s.Stats.Files, "file"), s.Stats.NodeCount, s.Stats.EdgeCount)
	if f := s.Freshness; f != nil {
		fmt.Fprintf(w, "index %s (commit %s, indexed %s, %d files changed since)\n", f.Status, shortCommit(f.IndexedCommit), f.IndexedAt, len(f.Dirty))
	}
	if s.GoLoadError != "" {
		fmt.Fprintf(w, "Go: not type-checked, so its answers are tree-sitter's lower bounds:\n  %s\n",
			strings.ReplaceAll(s.GoLoadError, "\n", "\n  "))
	}
	lo := s.LeftOut
	if lo == nil {
		fmt.Fprintln(w, "left out: not recorded (run albert-code graph index)")
		return
	}
	if lo.Count == 0 {
		fmt.Fprintln(w, "left out: nothing")
		return
	}
	fmt.Fprintf(w, "left out or partial: %s\n", leftOutSummary(lo))
	for _, f := range lo.Files {
		fmt.Fprintf(w, "  %s: %s\n", f.Path, f.Reason)
	}
	if lo.Truncated {
		fmt.Fprintf(w, "  ... and %d more (the first %d are listed)\n", lo.Count-len(lo.Files), len(lo.Files))
	}
}

// leftOutSummary is "12 files (7 unknown language, 3 binary, 2 parse error)".
func leftOutSummary(lo *index.LeftOut) string {
	var parts []string
	for _, why := range slices.Sorted(maps.Keys(lo.ByReason)) {
		parts = append(parts, fmt.Sprintf("%d %s", lo.ByReason[why], why))
	}
	return fmt.Sprintf("%s (%s)", cmdutil.CountOf(lo.Count, "file"), strings.Join(parts, ", "))
}
