package sandbox

import "context"

type modeKey struct{}

// WithMode returns ctx carrying the mode for the commands a tool call starts: the
// agent decides it from how the call was allowed, the tool reads it.
func WithMode(ctx context.Context, m Mode) context.Context {
	return context.WithValue(ctx, modeKey{}, m)
}

// ModeFrom returns the mode ctx carries, or ReadOnly when it carries none: a
// command whose caller said nothing gets the least.
func ModeFrom(ctx context.Context) Mode {
	if m, ok := ctx.Value(modeKey{}).(Mode); ok {
		return m
	}
	return ReadOnly
}
