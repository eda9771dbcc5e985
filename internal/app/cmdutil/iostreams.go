package cmdutil

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are a command's standard streams. Commands write here, never to
// os.Stdout, so a test reads what they print from a buffer.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// InIsTerminal reports whether the input is a terminal (a prompt is then never
// read from it).
func (s *IOStreams) InIsTerminal() bool { return isTerminal(s.In) }

// ErrIsTerminal reports whether errors go to a terminal (where a progress bar may
// redraw itself).
func (s *IOStreams) ErrIsTerminal() bool { return isTerminal(s.ErrOut) }

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
