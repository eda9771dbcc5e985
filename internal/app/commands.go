package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/session"
	"github.com/etalab-ia/albert-code/internal/trust"
)

func newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "config", Short: "Inspect and change the configuration"}
	cmd.AddCommand(&cobra.Command{
		Use:   "show",
		Short: "Print the merged configuration and where each value came from (secrets masked)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			e, err := loadEnvHere(false)
			if err != nil {
				return err
			}
			return config.Show(cmd.OutOrStdout(), e.Config)
		},
	})
	cmd.AddCommand(newConfigEditCmds()...)
	return cmd
}

func loadEnvHere(trustFlag bool) (*agentenv.Env, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	e, err := loadEnv(wd, config.Overrides{}, trustFlag)
	if err != nil {
		return nil, usageError("%v", err)
	}
	return e, nil
}

func newSessionsCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "sessions", Short: "List, show and delete saved sessions"}
	var all, asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the sessions of this directory, newest first (--all for every directory)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			e, err := loadEnvHere(false)
			if err != nil {
				return err
			}
			f := session.Filter{}
			if all {
				f.SubAgents = true
			} else {
				f.Cwd = e.WorkDir
			}
			metas, err := e.SessionStore().List(f)
			var broken *session.ListError
			if err != nil && !errors.As(err, &broken) {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				if metas == nil {
					metas = []session.Meta{}
				}
				if err := enc.Encode(metas); err != nil {
					return err
				}
			} else {
				tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tUPDATED\tMESSAGES\tMODEL\tTITLE")
				for _, m := range metas {
					fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", m.ID, m.UpdatedAt.Local().Format("2006-01-02 15:04"), m.MessageCount, m.Model, m.Title)
				}
				if err := tw.Flush(); err != nil {
					return err
				}
			}
			if broken != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "albert-code: warning:", broken)
			}
			return nil
		},
	}
	list.Flags().BoolVar(&all, "all", false, "list the sessions of every directory, sub-agent traces included")
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")

	show := &cobra.Command{
		Use:   "show ID",
		Short: "Print a session's messages",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := loadEnvHere(false)
			if err != nil {
				return err
			}
			log, msgs, err := e.SessionStore().Open(args[0])
			if err != nil {
				return usageError("%v", err)
			}
			defer log.Close()
			for _, w := range log.Warnings() {
				fmt.Fprintln(cmd.ErrOrStderr(), "albert-code: warning:", w)
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				for _, m := range msgs {
					if err := enc.Encode(m); err != nil {
						return err
					}
				}
				return nil
			}
			meta := log.Meta()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "session %s  %s  model %s  tokens in %d / out %d  cost %.4f\n\n",
				meta.ID, meta.Cwd, meta.Model, meta.Usage.InputTokens, meta.Usage.OutputTokens, meta.Cost)
			for _, m := range msgs {
				printMessage(out, m)
			}
			return nil
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print the messages as JSON lines")

	del := &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a session",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := loadEnvHere(false)
			if err != nil {
				return err
			}
			store := e.SessionStore()
			id, err := store.Resolve(args[0])
			if err != nil {
				return usageError("%v", err)
			}
			if err := store.Delete(id); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "deleted", id)
			return nil
		},
	}
	cmd.AddCommand(list, show, del)
	return cmd
}

func newTrustCmd() *cobra.Command {
	var remove bool
	cmd := &cobra.Command{
		Use:   "trust [DIR]",
		Short: "Trust a folder (default: the current one) so file-changing tools and project config apply there",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := os.Getwd()
			if err != nil {
				return err
			}
			if len(args) == 1 {
				dir = args[0]
			}
			home, err := config.HomeDir(os.LookupEnv)
			if err != nil {
				return err
			}
			ts, err := trust.Open(home)
			if err != nil {
				return err
			}
			if remove {
				err = ts.Untrust(dir)
			} else {
				err = ts.Trust(dir)
			}
			if err != nil {
				return err
			}
			verb := "trusted"
			if remove {
				verb = "untrusted"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s %s (%s)\n", verb, dir, ts.Path())
			return nil
		},
	}
	cmd.Flags().BoolVar(&remove, "remove", false, "mark the folder untrusted instead")
	return cmd
}
