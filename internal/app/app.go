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

// exitError carries an exit code through cobra; serve's files still make it (they
// move to cmdutil.Exit with serve's own package).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageError(format string, args ...any) error { return cmdutil.UsageError(format, args...) }

// Main runs the program and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	exportDotenvProxies()
	f := cmdutil.New(Version(), &cmdutil.IOStreams{In: stdin, Out: stdout, ErrOut: stderr})
	root := rootcmd.NewCmdRoot(f)
	root.AddCommand(newServeCmd())
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
	var ce *cmdutil.Exit
	var ee *exitError
	switch {
	case errors.As(err, &ce):
		code = ce.Code
		msg = ce.Error()
	case errors.As(err, &ee):
		code, msg = ee.code, ""
		if ee.err != nil {
			msg = ee.err.Error()
		}
	}
	if msg != "" {
		fmt.Fprintln(stderr, "albert-code:", msg)
	}
	return code
}
