package app

import (
	"errors"
	"fmt"
	"io"

	rootcmd "github.com/etalab-ia/albert-code/internal/app/cmd/root"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// Exit codes, documented in docs/headless.md.
const (
	ExitOK        = cmdutil.ExitOK
	ExitError     = cmdutil.ExitError
	ExitUsage     = cmdutil.ExitUsage
	ExitLimit     = cmdutil.ExitLimit
	ExitCancelled = cmdutil.ExitCancelled
)

// Main runs the program and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	exportDotenvProxies()
	f := cmdutil.New(Version(), &cmdutil.IOStreams{In: stdin, Out: stdout, ErrOut: stderr})
	root := rootcmd.NewCmdRoot(f)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return reportExit(root.Execute(), stderr)
}

// reportExit reports err on stderr, unless the command already did, and maps it to
// the process's exit code: a command's own code, else a usage error (cobra's).
func reportExit(err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	code, msg := ExitUsage, err.Error()
	if ce := (*cmdutil.Exit)(nil); errors.As(err, &ce) {
		code, msg = ce.Code, ce.Error()
	}
	if msg != "" {
		fmt.Fprintln(stderr, "albert-code:", msg)
	}
	return code
}
