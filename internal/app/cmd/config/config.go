// Package config is `albert-code config`: show the merged configuration, and set
// or unset one setting in the global or the project's file, as the terminal UI's
// /config does.
package config

import (
	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// NewCmdConfig is `config` and its subcommands.
func NewCmdConfig(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "config", Short: "Inspect and change the configuration"}
	cmd.AddCommand(NewCmdShow(f, nil), NewCmdSet(f, nil), NewCmdUnset(f, nil))
	return cmd
}

// envFunc loads the working folder's configuration.
type envFunc func() (*agentenv.Env, error)
