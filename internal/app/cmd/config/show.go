package config

import (
	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	conf "github.com/etalab-ia/albert-code/internal/config"
)

// ShowOptions are `config show`'s.
type ShowOptions struct {
	IO  *cmdutil.IOStreams
	Env envFunc
}

// NewCmdShow is `config show`; runF replaces the printing.
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{IO: f.IO, Env: f.EnvHere}
	return &cobra.Command{
		Use:   "show",
		Short: "Print the merged configuration and where each value came from (secrets masked)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
}

func showRun(opts *ShowOptions) error {
	e, err := opts.Env()
	if err != nil {
		return err
	}
	defer e.Close()
	return conf.Show(opts.IO.Out, e.Config)
}
