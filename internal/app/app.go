package app

import (
	"errors"
	"fmt"
	"io"
)

// Exit codes, documented in docs/headless.md.
const (
	ExitOK        = 0
	ExitError     = 1
	ExitUsage     = 2
	ExitLimit     = 3
	ExitCancelled = 130 // 128 + SIGINT, as shells report it
)

// exitError carries an exit code through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageError(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// Main runs the program and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	exportDotenvProxies()
	root := newRootCmd(stdin)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, "albert-code:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "albert-code:", err)
	return ExitUsage
}
