// Package app is the composition root of albert-code and albert-acp: Main and
// MainACP build the cmdutil.Factory once (streams, working folder, environment,
// clock, configuration), hand it to the root command (internal/app/cmd/root: the
// agent in the terminal UI or with -p) or to acp, and map errors to exit codes.
// Every command family is a package under internal/app/cmd (root, acp, sessions,
// config, trust, quota, migrate, cron, graph, serve), each command a
// NewCmdX(f, runF) whose flags and output have unit tests on cmdtest's fake
// Factory. It is the only package that knows every other one.
package app
