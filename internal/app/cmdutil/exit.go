package cmdutil

import "fmt"

// Exit codes, documented in docs/headless.md.
const (
	ExitOK        = 0
	ExitError     = 1
	ExitUsage     = 2
	ExitLimit     = 3
	ExitCancelled = 130 // 128 + SIGINT, as shells report it
)

// Exit carries an exit code through cobra to main. A nil or empty Err exits with
// Code and prints nothing: the command already said why.
type Exit struct {
	Code int
	Err  error
}

func (e *Exit) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

func (e *Exit) Unwrap() error { return e.Err }

// UsageError is a mistake in the command line or the input it names: exit 2.
func UsageError(format string, args ...any) error {
	return &Exit{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// Failed is an error of the work itself, not of how it was asked for: exit 1.
func Failed(err error) error {
	return &Exit{Code: ExitError, Err: err}
}
