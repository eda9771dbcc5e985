package sessions

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/session"
)

// ListOptions are `sessions list`'s.
type ListOptions struct {
	IO    *cmdutil.IOStreams
	Store storeFunc
	// All lists every folder's sessions, sub-agent traces included.
	All  bool
	JSON bool
}

// NewCmdList is `sessions list`; runF replaces the listing (tests read the options).
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Store: storeOf(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the sessions of this directory, newest first (--all for every directory)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.All, "all", false, "list the sessions of every directory, sub-agent traces included")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func listRun(opts *ListOptions) error {
	st, wd, err := opts.Store()
	if err != nil {
		return err
	}
	filter := session.Filter{}
	if opts.All {
		filter.SubAgents = true
	} else {
		filter.Cwd = wd
	}
	metas, err := st.List(filter)
	var broken *session.ListError
	if err != nil && !errors.As(err, &broken) {
		return err
	}
	if opts.JSON {
		if metas == nil {
			metas = []session.Meta{}
		}
		if err := cmdutil.PrintJSON(opts.IO.Out, metas); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tUPDATED\tMESSAGES\tMODEL\tTITLE")
		for _, m := range metas {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", m.ID, m.UpdatedAt.Local().Format("2006-01-02 15:04"), m.MessageCount, m.Model, m.Title)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if broken != nil {
		fmt.Fprintln(opts.IO.ErrOut, "albert-code: warning:", broken)
	}
	return nil
}
