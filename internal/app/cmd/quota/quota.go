// Package quota is `albert-code quota`: today's use of the account's daily limits,
// per model, as the quota providers report it.
package quota

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/albert"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// Options are `quota`'s.
type Options struct {
	IO *cmdutil.IOStreams
	// Reports asks each quota provider for its report.
	Reports func(context.Context) ([]albert.Report, error)
	JSON    bool
}

// NewCmdQuota is `quota`; runF replaces the report.
func NewCmdQuota(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Reports: func(ctx context.Context) ([]albert.Report, error) {
		e, err := f.EnvHere()
		if err != nil {
			return nil, err
		}
		defer e.Close()
		return e.QuotaReports(ctx), nil
	}}
	cmd := &cobra.Command{
		Use:   "quota",
		Short: "Show today's usage against the daily limits of the Albert account (--json for scripts)",
		Long: `quota asks the providers listed in [rate_limits] quota_providers (default: albert)
for the account's limits (GET /v1/me/info) and today's usage since 00:00 UTC (GET
/v1/me/usage), and prints them per model against the daily limits: the documented
Albert tier, [rate_limits.models] overrides, or limits the server stated in a 429.
It exits with status 1 when no provider could be read.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func run(ctx context.Context, opts *Options) error {
	reports, err := opts.Reports(ctx)
	if err != nil {
		return err
	}
	out := opts.IO.Out
	if opts.JSON {
		if err := cmdutil.PrintJSON(out, struct {
			Providers []albert.Report `json:"providers"`
		}{reports}); err != nil {
			return err
		}
	} else {
		for i, r := range reports {
			if i > 0 {
				fmt.Fprintln(out)
			}
			if err := r.WriteText(out); err != nil {
				return err
			}
		}
	}
	return exitFor(reports)
}

// exitFor fails when no report could be read at all, so a script notices.
func exitFor(reports []albert.Report) error {
	for _, r := range reports {
		if len(r.Errors) == 0 {
			return nil
		}
	}
	return cmdutil.Failed(errors.New("no quota provider could be read (see the errors above)"))
}
