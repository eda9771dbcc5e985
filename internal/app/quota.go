package app

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/albert"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// newQuotaCmd is `albert-code quota`: today's use of each quota provider's daily
// limits per model, the account's limits per router, and the daily quotas recorded
// as exhausted.
func newQuotaCmd(fac *cmdutil.Factory) *cobra.Command {
	var asJSON bool
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
			e, err := fac.EnvHere()
			if err != nil {
				return err
			}
			reports := e.QuotaReports(cmd.Context())
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				if err := enc.Encode(struct {
					Providers []albert.Report `json:"providers"`
				}{reports}); err != nil {
					return err
				}
			} else {
				for i, r := range reports {
					if i > 0 {
						fmt.Fprintln(cmd.OutOrStdout())
					}
					if err := r.WriteText(cmd.OutOrStdout()); err != nil {
						return err
					}
				}
			}
			return quotaExit(reports)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// quotaExit fails when no report could be read at all, so a script notices.
func quotaExit(reports []albert.Report) error {
	for _, r := range reports {
		if len(r.Errors) == 0 {
			return nil
		}
	}
	return cmdutil.Failed(errors.New("no quota provider could be read (see the errors above)"))
}
