// Package trust is `albert-code trust`: mark a folder trusted (file-changing tools
// and project configuration apply there) or, with --remove, untrusted.
package trust

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/trust"
)

// Options are `trust`'s.
type Options struct {
	IO *cmdutil.IOStreams
	// Home is albert-code's home, where the answers are kept.
	Home func() (string, error)
	// Dir is the folder named, else the working folder.
	Dir    string
	Remove bool
}

// NewCmdTrust is `trust [DIR]`; runF replaces the change.
func NewCmdTrust(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Home: f.HomeDir}
	cmd := &cobra.Command{
		Use:   "trust [DIR]",
		Short: "Trust a folder (default: the current one) so file-changing tools and project config apply there",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Dir = args[0]
			} else {
				wd, err := f.Getwd()
				if err != nil {
					return err
				}
				opts.Dir = wd
			}
			if runF != nil {
				return runF(opts)
			}
			return run(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Remove, "remove", false, "mark the folder untrusted instead")
	return cmd
}

func run(opts *Options) error {
	home, err := opts.Home()
	if err != nil {
		return err
	}
	ts, err := trust.Open(home)
	if err != nil {
		return err
	}
	verb := "trusted"
	if opts.Remove {
		verb = "untrusted"
		err = ts.Untrust(opts.Dir)
	} else {
		err = ts.Trust(opts.Dir)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "%s %s (%s)\n", verb, opts.Dir, ts.Path())
	return nil
}
