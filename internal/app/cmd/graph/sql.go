package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// SQLOptions are `graph sql`'s.
type SQLOptions struct {
	f        *cmdutil.Factory
	Repo     string
	Query    string
	MaxRows  int
	MaxBytes int64
	// Timeout bounds the query and its printing; 0 or less is the default.
	Timeout time.Duration
	JSON    bool
}

// NewCmdSQL is `graph sql 'SELECT ...'`; runF replaces the query.
func NewCmdSQL(f *cmdutil.Factory, runF func(*SQLOptions) error) *cobra.Command {
	opts := &SQLOptions{f: f}
	cmd := &cobra.Command{
		Use:   "sql 'SELECT ...'",
		Short: "Run one read-only SQL query on the index (see `graph schema`)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Repo, opts.Query = repoFlag(cmd), args[0]
			if runF != nil {
				return runF(opts)
			}
			return sqlRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVar(&opts.MaxRows, "max-rows", store.DefaultMaxRows, "stop after this many rows")
	cmd.Flags().Int64Var(&opts.MaxBytes, "max-bytes", store.DefaultMaxBytes, fmt.Sprintf("stop before the values shown pass this many bytes (at most %d)", store.MaxBytes))
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", store.DefaultQueryTimeout, "stop a query, and its printing, that runs longer")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func sqlRun(ctx context.Context, opts *SQLOptions) error {
	_, st, err := openRepoIndex(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	defer st.Close()
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = store.DefaultQueryTimeout
	}
	// The timeout covers the printing too: the answer is bounded in bytes, but a
	// terminal that reads slowly must not hold the command past it.
	deadline := time.Now().Add(timeout)
	a, err := st.QueryAnswer(ctx, opts.Query, store.QueryLimits{MaxRows: opts.MaxRows, MaxBytes: opts.MaxBytes, Timeout: timeout})
	if err != nil {
		return cmdutil.Failed(err)
	}
	if err := printSQLAnswer(opts.f.IO.Out, a, opts.JSON, deadline); err != nil {
		return cmdutil.Failed(err)
	}
	switch a.CutBy {
	case "rows":
		fmt.Fprintf(opts.f.IO.ErrOut, "albert-code: the answer was cut at %d rows (--max-rows); %d bytes shown\n", len(a.Rows), a.Bytes)
	case "bytes":
		fmt.Fprintf(opts.f.IO.ErrOut, "albert-code: the answer was cut at %d bytes (--max-bytes), after %d rows\n", a.Bytes, len(a.Rows))
	}
	return nil
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
