package cron

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// ValidateOptions are `cron validate`'s.
type ValidateOptions struct {
	IO   *cmdutil.IOStreams
	Now  func() time.Time
	File string
	// Workspace is the workspaces' root, to check each job's exists; empty is
	// serve's (ALBERT_CODE_WORKSPACE).
	Workspace string
}

// NewCmdValidate is `cron validate FILE`; runF replaces the check.
func NewCmdValidate(f *cmdutil.Factory, runF func(*ValidateOptions) error) *cobra.Command {
	opts := &ValidateOptions{IO: f.IO, Now: f.Now}
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Check a job file strictly: keys, types, schedules, time zones, workspaces",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.File = args[0]
			if opts.Workspace == "" {
				opts.Workspace = serveSettings(f).Workspace
			}
			if runF != nil {
				return runF(opts)
			}
			return validateRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Workspace, "workspace", "", "root folder of the workspaces, to check that each job's exists (default: ALBERT_CODE_WORKSPACE)")
	return cmd
}

func validateRun(opts *ValidateOptions) error {
	f, err := LoadFile(opts.File, opts.Now())
	if err != nil {
		return err
	}
	checked, err := checkWorkspaces(f, opts.Workspace)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	out := opts.IO.Out
	fmt.Fprintf(out, "%s: %s, %d enabled: valid\n", f.Path, cmdutil.CountOf(len(f.Jobs), "job"), len(f.Enabled()))
	if !checked {
		fmt.Fprintf(out, "workspaces not checked: the root %s does not exist (give --workspace)\n", opts.Workspace)
	}
	return nil
}

// checkWorkspaces checks that each enabled job's workspace exists under root;
// false when root itself does not exist, so nothing could be checked.
func checkWorkspaces(f *cron.File, root string) (bool, error) {
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return false, nil
	}
	r, err := workspace.NewRoot(root)
	if err != nil {
		return false, err
	}
	if _, ps := cron.CheckWorkspaces(f.Path, f.Jobs, r); len(ps) > 0 {
		return true, ps
	}
	return true, nil
}
