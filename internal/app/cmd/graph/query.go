package graph

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/compact"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
)

// QueryOptions are `graph query`'s.
type QueryOptions struct {
	f      *cmdutil.Factory
	Repo   string
	Kind   string
	Symbol string
	Depth  int
	Shape  compact.Shape
	JSON   bool
}

// NewCmdQuery is `graph query KIND SYMBOL`; runF replaces the answer.
func NewCmdQuery(f *cmdutil.Factory, runF func(*QueryOptions) error) *cobra.Command {
	opts := &QueryOptions{f: f}
	cmd := &cobra.Command{
		Use:   "query KIND SYMBOL",
		Short: "Answer a question: " + strings.Join(query.Kinds, ", "),
		Long: `Answer a structure question about SYMBOL, a qualified name (example.com/m/pkg.Type.Method)
or a bare name. Every answer says whether it is exact or a lower bound, and why, and
how fresh the index is. impact walks SYMBOL's dependents --depth hops deep; context
shows its neighbourhood (definition, container, callers, callees, members,
implementations) within a budget.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Repo, opts.Kind, opts.Symbol = repoFlag(cmd), args[0], args[1]
			if runF != nil {
				return runF(opts)
			}
			return queryRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the answer as JSON")
	cmd.Flags().IntVar(&opts.Depth, "depth", 0, fmt.Sprintf("impact: hops to walk (default %d, at most %d)", query.DefaultDepth, query.MaxDepth))
	cmd.Flags().StringVar(&opts.Shape.Detail, "detail", "", "ids: JSON with the items as qualified names only")
	cmd.Flags().StringVar(&opts.Shape.Format, "format", "", "tabular: JSON with the items as one string, a header line then one tab-separated line per item")
	return cmd
}

func queryRun(ctx context.Context, opts *QueryOptions) error {
	if err := opts.Shape.Check(); err != nil {
		return cmdutil.UsageError("%v", err)
	}
	root, st, err := openRepoIndex(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	defer st.Close()
	qopts := query.Options{Depth: opts.Depth}
	if opts.Kind == "search" {
		if path, err := dbPath(root, false); err == nil {
			leg, closeLeg := vectorLeg(opts.f, root, path)
			defer closeLeg()
			qopts.Vectors = leg.AsLeg()
		}
	}
	a, err := query.AskWith(ctx, st, opts.Kind, opts.Symbol, qopts)
	if err != nil {
		return questionError(err)
	}
	fresh, ferr := index.CheckFreshness(ctx, root, st, index.Limits{})
	out := opts.f.IO.Out
	if opts.JSON || opts.Shape.Compact() {
		v := struct {
			*query.Answer
			Freshness *index.Freshness `json:"freshness,omitempty"`
		}{Answer: a}
		if ferr == nil {
			v.Freshness = &fresh
		}
		return cmdutil.PrintJSON(out, opts.Shape.Apply(v))
	}
	return printAnswer(out, a, fresh, ferr)
}

func printAnswer(w io.Writer, a *query.Answer, fresh index.Freshness, ferr error) error {
	fmt.Fprintf(w, "%s of %s: %d result(s), %s", a.Question, a.Symbol, len(a.Items), a.Certainty)
	if a.Why != "" {
		fmt.Fprintf(w, " (%s)", a.Why)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, it := range a.Items {
		loc := "(external)"
		if it.File != "" {
			loc = fmt.Sprintf("%s:%d", it.File, it.Line)
		}
		site := ""
		if it.SiteLine > 0 {
			site = fmt.Sprintf("at %s:%d", it.SiteFile, it.SiteLine)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", loc, it.QName, it.Kind, site)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	switch {
	case ferr != nil:
		fmt.Fprintf(w, "freshness unknown: %v\n", ferr)
	case fresh.Status == "stale":
		fmt.Fprintf(w, "the index is stale: %d file(s) changed since it was built; run `albert-code graph index`\n", len(fresh.Dirty))
	}
	return nil
}
