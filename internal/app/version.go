package app

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// version is set at link time (-ldflags "-X .../internal/app.version=v1.2.3"); a plain
// `go install` falls back to the module version Go records in the binary.
var version = ""

// Version reports the program's version.
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

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
