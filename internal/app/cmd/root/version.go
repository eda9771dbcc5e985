package root

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// newVersionCmd is `version`, --version's twin.
func newVersionCmd(fac *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "albert-code %s\n", fac.Version)
			return err
		},
	}
}
