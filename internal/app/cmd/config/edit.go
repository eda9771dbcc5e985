package config

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	conf "github.com/etalab-ia/albert-code/internal/config"
)

// EditOptions are `config set`'s and `config unset`'s: the terminal UI's /config
// set and /config unset for scripts, with the same settings, checks and in-place
// edit that keeps the file's comments.
type EditOptions struct {
	IO  *cmdutil.IOStreams
	Env envFunc
	Key string
	// Value is set's; unset has none.
	Value string
	// Global and Project name the file; neither means the global one for set, and
	// for unset the file that sets the key.
	Global, Project bool
}

// NewCmdSet is `config set KEY VALUE`; runF replaces the edit.
func NewCmdSet(f *cmdutil.Factory, runF func(*EditOptions) error) *cobra.Command {
	opts := &EditOptions{IO: f.IO, Env: f.EnvHere}
	cmd := &cobra.Command{
		Use:   "set KEY VALUE",
		Short: "Save a setting in the global config (default) or the project's .albert-code.toml, keeping the file's comments",
		Args:  cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.Key, opts.Value = args[0], args[1]
			if runF != nil {
				return runF(opts)
			}
			return setRun(opts)
		},
	}
	addTargetFlags(cmd, opts)
	return cmd
}

// NewCmdUnset is `config unset KEY`; runF replaces the edit.
func NewCmdUnset(f *cmdutil.Factory, runF func(*EditOptions) error) *cobra.Command {
	opts := &EditOptions{IO: f.IO, Env: f.EnvHere}
	cmd := &cobra.Command{
		Use:   "unset KEY",
		Short: "Remove a setting from the file that sets it (or the one --global or --project names)",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.Key = args[0]
			if runF != nil {
				return runF(opts)
			}
			return unsetRun(opts)
		},
	}
	addTargetFlags(cmd, opts)
	return cmd
}

func addTargetFlags(cmd *cobra.Command, opts *EditOptions) {
	cmd.Flags().BoolVar(&opts.Global, "global", false, "the global config file (default)")
	cmd.Flags().BoolVar(&opts.Project, "project", false, "the project's .albert-code.toml")
}

// target is the file the flags name, the global one by default.
func (o *EditOptions) target() (conf.Target, error) {
	if o.Project && o.Global {
		return 0, cmdutil.UsageError("give --global or --project, not both")
	}
	if o.Project {
		return conf.TargetProject, nil
	}
	return conf.TargetGlobal, nil
}

func setRun(opts *EditOptions) error {
	to, err := opts.target()
	if err != nil {
		return err
	}
	e, err := opts.Env()
	if err != nil {
		return err
	}
	defer e.Close()
	saved, err := e.Config.SaveSetting(opts.Key, opts.Value, to)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	fmt.Fprintf(opts.IO.Out, "Saved %s = %q in %s (%s config).\n", opts.Key, saved.Value, saved.Path, to)
	warnOverridden(opts.IO, saved)
	return nil
}

func unsetRun(opts *EditOptions) error {
	to, err := opts.target()
	if err != nil {
		return err
	}
	e, err := opts.Env()
	if err != nil {
		return err
	}
	defer e.Close()
	if !opts.Project && !opts.Global {
		if t, ok := e.Config.SettingTarget(opts.Key); ok {
			to = t
		}
	}
	saved, err := e.Config.UnsetSetting(opts.Key, to)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	fmt.Fprintf(opts.IO.Out, "Removed %s from %s (%s config).\n", opts.Key, saved.Path, to)
	warnOverridden(opts.IO, saved)
	return nil
}

func warnOverridden(io *cmdutil.IOStreams, saved conf.Saved) {
	if saved.OverriddenBy != "" {
		fmt.Fprintf(io.ErrOut, "note: %s also sets %s and wins over %s here\n", saved.OverriddenBy, saved.Setting.Key, saved.Path)
	}
}
