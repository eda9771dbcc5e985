package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/graph/changes"
	"github.com/etalab-ia/albert-code/internal/graph/cochange"
	"github.com/etalab-ia/albert-code/internal/graph/compact"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

func newGraphCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Index a repository and answer structure questions (who calls, what implements...)",
	}
	var repo string
	cmd.PersistentFlags().StringVar(&repo, "repo", "", "the repository (default: the enclosing git repository, or the current directory)")
	cmd.AddCommand(newGraphIndexCmd(), newGraphQueryCmd(&repo), newGraphSQLCmd(&repo), newGraphSchemaCmd(), newGraphStatsCmd(&repo), newGraphStatusCmd(&repo), newGraphChangesCmd(&repo), newGraphCoChangeCmd(&repo), newGraphEntryPointsCmd(&repo), newGraphCommunitiesCmd(&repo), newGraphMCPCmd(&repo),
		newGraphExportCmd(&repo), newGraphImportCmd(&repo), newGraphUICmd(&repo))
	return cmd
}

// graphDBPath is where a repository's index lives: inside it, in
// .albert-code/graph/, or in the user's cache when the repository is read-only.
// With create, the folder is made; without, an existing index is looked for.
func graphDBPath(root string, create bool) (string, error) {
	return agenttool.DefaultIndexPath(root, create)
}

// graphRoot picks the repository: the flag, else the enclosing git work tree, else
// the working directory.
func graphRoot(flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if top, ok := index.RepoRoot(wd); ok {
		return top, nil
	}
	if out, err := exec.Command("git", "-C", wd, "rev-parse", "--show-toplevel").Output(); err == nil {
		return strings.TrimSpace(string(out)), nil
	}
	return wd, nil
}

func newGraphIndexCmd() *cobra.Command {
	var rebuild, asJSON bool
	var excludes []string
	cmd := &cobra.Command{
		Use:   "index [PATH]",
		Short: "Index the repository at PATH (default: the enclosing repository); only what changed is redone",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			flag := ""
			if len(args) == 1 {
				flag = args[0]
			}
			root, err := graphRoot(flag)
			if err != nil {
				return err
			}
			if st, err := os.Stat(root); err != nil || !st.IsDir() {
				return usageError("index %s: not a directory", root)
			}
			path, err := graphDBPath(root, true)
			if err != nil {
				return err
			}
			if rebuild {
				if err := store.Remove(path); err != nil {
					return err
				}
			} else {
				bootstrapIndex(cmd.Context(), root, path, cmd.ErrOrStderr())
			}
			st, rebuilt, err := store.OpenOrRebuild(path)
			if err != nil {
				return err // the store's errors say what to do (--rebuild for a corrupt index)
			}
			defer st.Close()
			if rebuilt != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "albert-code: building the index %s again: %s\n", path, rebuilt)
			}
			opts := index.Options{Limits: index.Limits{Exclude: excludes}, Rebuild: rebuild,
				Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract}
			if f, ok := cmd.ErrOrStderr().(*os.File); ok && term.IsTerminal(int(f.Fd())) && !asJSON {
				opts.Progress = progressBar(f)
			}
			rep, err := index.RunInPasses(cmd.Context(), root, st, opts, func(first *index.Report) {
				if opts.Progress != nil {
					fmt.Fprint(cmd.ErrOrStderr(), "\r\033[K")
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "first pass in %v: %s read (Go for its definitions only), answers are lower bounds (%s); the type checker's pass follows\n",
					first.Duration.Round(time.Millisecond), countOf(first.Files, "file"), golang.TypesPending)
			})
			if opts.Progress != nil {
				fmt.Fprint(cmd.ErrOrStderr(), "\r\033[K")
			}
			if err != nil {
				return err
			}
			emb := embedIndex(cmd, root, path, st)
			return printReport(cmd.OutOrStdout(), rep, path, emb, asJSON)
		},
	}
	cmd.Flags().BoolVar(&rebuild, "rebuild", false, "discard the index and build it again")
	cmd.Flags().StringArrayVar(&excludes, "exclude", nil, "leave out paths matching this glob ('**' spans folders); repeatable")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

// progressBar draws "indexing [####....] n/total" on a terminal, at most every 100 ms.
func progressBar(w io.Writer) func(done, total int) {
	var last time.Time
	return func(done, total int) {
		if time.Since(last) < 100*time.Millisecond && done < total {
			return
		}
		last = time.Now()
		const width = 30
		filled := 0
		if total > 0 {
			filled = width * done / total
		}
		fmt.Fprintf(w, "\rindexing [%s%s] %d/%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total)
	}
}

func printReport(w io.Writer, rep *index.Report, path string, emb *embedReport, asJSON bool) error {
	if asJSON {
		return printJSON(w, struct {
			*index.Report
			Index      string       `json:"index"`
			Embeddings *embedReport `json:"embeddings,omitempty"`
		}{rep, path, emb})
	}
	fmt.Fprintf(w, "indexed %s in %v: %s (%d extracted, %d unchanged, %d removed, %d renamed)\n",
		rep.Root, rep.Duration.Round(time.Millisecond), countOf(rep.Files, "file"), rep.Extracted, rep.Unchanged, rep.Removed, rep.Renamed)
	if rep.GoTypes {
		mode := ""
		if rep.GoMode == "incremental" {
			mode = ", only the edited packages re-checked"
		} else if rep.GoFullReason != "" {
			mode = ", module reloaded: " + rep.GoFullReason
		}
		fmt.Fprintf(w, "Go: type-checked (exact edges)%s, %d loading or type errors\n", mode, rep.GoErrors)
		printGoErrors(w, rep.GoErrors, rep.GoErrorList)
	} else if rep.GoLoadError != "" {
		fmt.Fprintf(w, "Go: not type-checked, so its edges come from tree-sitter and its answers are lower bounds:\n  %s\n",
			strings.ReplaceAll(rep.GoLoadError, "\n", "\n  "))
	}
	if r := rep.Resolve; r != nil && r.Files > 0 {
		fmt.Fprintf(w, "cross-file: %s resolved again: %d sites by import, %d by name, %d left unresolved; imports %d resolved, %d external, %d not found\n",
			countOf(r.Files, "file"), r.ByImport, r.ByName, r.Unresolved, r.ImportsResolved, r.ImportsExternal, r.ImportsMissing)
	}
	for _, group := range []struct {
		name  string
		items []index.Skip
	}{{"skipped", rep.Skipped}, {"partial", rep.Partial}, {"quarantined", rep.Quarantined}} {
		if len(group.items) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s: %d\n", group.name, len(group.items))
		for i, s := range group.items {
			if i == 5 {
				fmt.Fprintf(w, "  ... and %d more (--json lists them all)\n", len(group.items)-5)
				break
			}
			fmt.Fprintf(w, "  %s: %s\n", s.Rel, s.Reason)
		}
	}
	if rep.Truncated {
		fmt.Fprintln(w, "the walk stopped at a limit (files or total size): the index is partial")
	}
	if lo := rep.LeftOut; lo != nil && lo.Count > 0 {
		fmt.Fprintf(w, "left out or partial: %s; albert-code graph status lists them\n", leftOutSummary(lo))
	}
	if emb != nil {
		if emb.Error != "" {
			fmt.Fprintf(w, "embeddings: not updated (%s); search falls back to BM25\n", emb.Error)
		} else {
			fmt.Fprintf(w, "embeddings: %d of %d symbols embedded by %s (%d new)\n", emb.Embedded, emb.Total, emb.Model, emb.New)
		}
	}
	fmt.Fprintf(w, "index: %s\n", path)
	return nil
}

// openRepoIndex finds the repository (see graphRoot) and opens its index read-only.
func openRepoIndex(flag string) (string, *store.Store, error) {
	root, err := graphRoot(flag)
	if err != nil {
		return "", nil, err
	}
	st, err := openIndex(root)
	return root, st, err
}

// openIndex opens an existing index of root, read-only.
func openIndex(root string) (*store.Store, error) {
	path, err := graphDBPath(root, false)
	if err != nil {
		return nil, err
	}
	st, err := store.OpenReadOnly(path)
	if err != nil {
		if errors.Is(err, store.ErrNoIndex) {
			return nil, usageError("%s has no index yet: run `albert-code graph index %s`", root, root)
		}
		return nil, err
	}
	return st, nil
}

func newGraphQueryCmd(repo *string) *cobra.Command {
	var asJSON bool
	var depth int
	var shape compact.Shape
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
			if err := shape.Check(); err != nil {
				return usageError("%v", err)
			}
			root, st, err := openRepoIndex(*repo)
			if err != nil {
				return err
			}
			defer st.Close()
			ctx := cmd.Context()
			opts := query.Options{Depth: depth}
			if args[0] == "search" {
				if path, err := graphDBPath(root, false); err == nil {
					leg, closeLeg := vectorLeg(root, path)
					defer closeLeg()
					opts.Vectors = leg.AsLeg()
				}
			}
			a, err := query.AskWith(ctx, st, args[0], args[1], opts)
			if err != nil {
				return questionError(err)
			}
			fresh, ferr := index.CheckFreshness(ctx, root, st, index.Limits{})
			if asJSON || shape.Compact() {
				out := struct {
					*query.Answer
					Freshness *index.Freshness `json:"freshness,omitempty"`
				}{Answer: a}
				if ferr == nil {
					out.Freshness = &fresh
				}
				return printJSON(cmd.OutOrStdout(), shape.Apply(out))
			}
			return printAnswer(cmd.OutOrStdout(), a, fresh, ferr)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the answer as JSON")
	cmd.Flags().IntVar(&depth, "depth", 0, fmt.Sprintf("impact: hops to walk (default %d, at most %d)", query.DefaultDepth, query.MaxDepth))
	cmd.Flags().StringVar(&shape.Detail, "detail", "", "ids: JSON with the items as qualified names only")
	cmd.Flags().StringVar(&shape.Format, "format", "", "tabular: JSON with the items as one string, a header line then one tab-separated line per item")
	return cmd
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

func newGraphSQLCmd(repo *string) *cobra.Command {
	var maxRows int
	var maxBytes int64
	var timeout time.Duration
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sql 'SELECT ...'",
		Short: "Run one read-only SQL query on the index (see `graph schema`)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, st, err := openRepoIndex(*repo)
			if err != nil {
				return err
			}
			defer st.Close()
			if timeout <= 0 {
				timeout = store.DefaultQueryTimeout
			}
			// The timeout covers the printing too: the answer is bounded in bytes,
			// but a terminal that reads slowly must not hold the command past it.
			deadline := time.Now().Add(timeout)
			a, err := st.QueryAnswer(cmd.Context(), args[0], store.QueryLimits{MaxRows: maxRows, MaxBytes: maxBytes, Timeout: timeout})
			if err != nil {
				return &exitError{code: ExitError, err: err}
			}
			if err := printSQLAnswer(cmd.OutOrStdout(), a, asJSON, deadline); err != nil {
				return &exitError{code: ExitError, err: err}
			}
			switch a.CutBy {
			case "rows":
				fmt.Fprintf(cmd.ErrOrStderr(), "albert-code: the answer was cut at %d rows (--max-rows); %d bytes shown\n", len(a.Rows), a.Bytes)
			case "bytes":
				fmt.Fprintf(cmd.ErrOrStderr(), "albert-code: the answer was cut at %d bytes (--max-bytes), after %d rows\n", a.Bytes, len(a.Rows))
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&maxRows, "max-rows", store.DefaultMaxRows, "stop after this many rows")
	cmd.Flags().Int64Var(&maxBytes, "max-bytes", store.DefaultMaxBytes, fmt.Sprintf("stop before the values shown pass this many bytes (at most %d)", store.MaxBytes))
	cmd.Flags().DurationVar(&timeout, "timeout", store.DefaultQueryTimeout, "stop a query, and its printing, that runs longer")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// printSQLAnswer writes a as JSON or as a table, and gives up past deadline.
func printSQLAnswer(w io.Writer, a store.Answer, asJSON bool, deadline time.Time) error {
	late := func() error {
		if time.Now().After(deadline) {
			return fmt.Errorf("graph sql: printing the answer ran past the timeout (--timeout): ask for fewer rows or bytes")
		}
		return nil
	}
	if asJSON {
		if err := late(); err != nil {
			return err
		}
		return json.NewEncoder(w).Encode(map[string]any{"columns": a.Columns, "rows": a.Rows, "truncated": a.Truncated,
			"cut_by": a.CutBy, "bytes": a.Bytes})
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(a.Columns, "\t"))
	for _, r := range a.Rows {
		if err := late(); err != nil {
			return err
		}
		cells := make([]string, len(r))
		for i, v := range r {
			cells[i] = fmt.Sprint(v)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := late(); err != nil {
		return err
	}
	return tw.Flush()
}

func newGraphSchemaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the SQL schema of the index",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := io.WriteString(cmd.OutOrStdout(), (*store.Store)(nil).Schema())
			return err
		},
	}
}

func newGraphStatsCmd(repo *string) *cobra.Command {
	return &cobra.Command{
		Use:   "stats",
		Short: "Count what the index holds, and say how fresh it is",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, st, err := openRepoIndex(*repo)
			if err != nil {
				return err
			}
			defer st.Close()
			stats, err := st.Stats(cmd.Context())
			if err != nil {
				return err
			}
			fresh, ferr := index.CheckFreshness(context.WithoutCancel(cmd.Context()), root, st, index.Limits{})
			out := map[string]any{"stats": stats}
			if ferr == nil {
				out["freshness"] = fresh
			}
			return printJSON(cmd.OutOrStdout(), out)
		},
	}
}

func newGraphChangesCmd(repo *string) *cobra.Command {
	var base string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "changes",
		Short: "Map a git diff onto the definitions it touches, with what depends on each (a heuristic risk)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, st, err := openRepoIndex(*repo)
			if err != nil {
				return err
			}
			defer st.Close()
			hunks, err := changes.Diff(cmd.Context(), root, base)
			if err != nil {
				return usageError("%v", err)
			}
			rep, err := changes.Map(cmd.Context(), st, base, hunks)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), rep)
			}
			w := cmd.OutOrStdout()
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
		},
	}
	cmd.Flags().StringVar(&base, "base", "", "compare the working tree with this revision (default HEAD)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newGraphCoChangeCmd(repo *string) *cobra.Command {
	var commits int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "cochange FILE",
		Short: "List the files that git history shows changing together with FILE",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := graphRoot(*repo)
			if err != nil {
				return err
			}
			file := args[0]
			if abs, err := filepath.Abs(file); err == nil {
				if rel, err := filepath.Rel(root, abs); err == nil && filepath.IsLocal(rel) {
					file = rel
				}
			}
			res, err := cochange.Compute(cmd.Context(), root, file, commits)
			if err != nil {
				return usageError("%v", err)
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), res)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%s changed in %d of the last %d commits (%d bulk commits left out)\n", res.File, res.Commits, res.Read, res.Skipped)
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			for _, p := range res.Partners {
				fmt.Fprintf(tw, "%s\t%d together\t%.0f%% of its changes\n", p.File, p.Count, 100*p.Coupling)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().IntVar(&commits, "commits", 1000, "how many recent commits to read")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newGraphEntryPointsCmd(repo *string) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "entrypoints",
		Short: "List where execution enters the code: main, init, tests, and exported functions nothing calls",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, st, err := openRepoIndex(*repo)
			if err != nil {
				return err
			}
			defer st.Close()
			a, err := query.EntryPoints(cmd.Context(), st)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), a)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%d entry point(s), %s (%s)\n", len(a.Items), a.Certainty, a.Why)
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			for _, it := range a.Items {
				fmt.Fprintf(tw, "%s:%d\t%s\t%s\n", it.File, it.Line, it.QName, it.Why)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// questionError is a question's failure as the command reports it: an unknown
// symbol (with its suggestions) is an error, a bad parameter a usage error.
func questionError(err error) error {
	var unknown *query.UnknownSymbolError
	if errors.As(err, &unknown) {
		return &exitError{code: ExitError, err: err}
	}
	return usageError("%v", err)
}

// printJSON writes v as indented JSON, the --json output of every graph command.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
