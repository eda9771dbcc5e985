package cmdtest

import (
	"io"

	"github.com/spf13/cobra"
)

// Run executes cmd with args as the root command would: silent about usage, its
// own output (help, cobra's errors) discarded, so the test reads only what the
// command itself printed to the Factory's streams.
func Run(cmd *cobra.Command, args ...string) error {
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	return cmd.Execute()
}
