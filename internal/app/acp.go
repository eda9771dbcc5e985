package app

import (
	"io"

	acpcmd "github.com/etalab-ia/albert-code/internal/app/cmd/acp"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// MainACP is albert-acp's whole program: `albert-code acp` under its own name.
func MainACP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	exportDotenvProxies()
	cmd := acpcmd.NewCmdACP(cmdutil.New(Version(), &cmdutil.IOStreams{In: stdin, Out: stdout, ErrOut: stderr}), nil)
	cmd.Use = "albert-acp"
	cmd.Version = Version()
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	if err := cmd.Execute(); err != nil {
		_, _ = io.WriteString(stderr, "albert-acp: "+err.Error()+"\n")
		return ExitError
	}
	return ExitOK
}
