// Package cmdutil is what albert-code's commands are built from: the Factory that
// hands each command its dependencies (streams, working folder, environment,
// configuration, clock), built once by the root command and faked in tests, and the
// errors that carry an exit code back to main.
package cmdutil
