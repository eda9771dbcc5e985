package app

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/config"
)

// newConfigEditCmds are `config set` and `config unset`, the terminal UI's /config
// set and /config unset for scripts: the same settings, checks and in-place edit.
func newConfigEditCmds() []*cobra.Command {
	var project, global bool
	target := func() (config.Target, error) {
		if project && global {
			return 0, usageError("give --global or --project, not both")
		}
		if project {
			return config.TargetProject, nil
		}
		return config.TargetGlobal, nil
	}
	set := &cobra.Command{
		Use:   "set KEY VALUE",
		Short: "Save a setting in the global config (default) or the project's .albert-code.toml, keeping the file's comments",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			to, err := target()
			if err != nil {
				return err
			}
			e, err := loadEnvHere(false)
			if err != nil {
				return err
			}
			defer e.Close()
			saved, err := e.Config.SaveSetting(args[0], args[1], to)
			if err != nil {
				return usageError("%v", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Saved %s = %q in %s (%s config).\n", args[0], saved.Value, saved.Path, to)
			warnOverridden(cmd, saved)
			return nil
		},
	}
	unset := &cobra.Command{
		Use:   "unset KEY",
		Short: "Remove a setting from the file that sets it (or the one --global or --project names)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			to, err := target()
			if err != nil {
				return err
			}
			e, err := loadEnvHere(false)
			if err != nil {
				return err
			}
			defer e.Close()
			if !project && !global {
				if t, ok := e.Config.SettingTarget(args[0]); ok {
					to = t
				}
			}
			saved, err := e.Config.UnsetSetting(args[0], to)
			if err != nil {
				return usageError("%v", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Removed %s from %s (%s config).\n", args[0], saved.Path, to)
			warnOverridden(cmd, saved)
			return nil
		},
	}
	for _, c := range []*cobra.Command{set, unset} {
		c.Flags().BoolVar(&global, "global", false, "the global config file (default)")
		c.Flags().BoolVar(&project, "project", false, "the project's .albert-code.toml")
	}
	return []*cobra.Command{set, unset}
}

func warnOverridden(cmd *cobra.Command, saved config.Saved) {
	if saved.OverriddenBy != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s also sets %s and wins over %s here\n", saved.OverriddenBy, saved.Setting.Key, saved.Path)
	}
}
