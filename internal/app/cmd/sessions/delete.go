package sessions

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// DeleteOptions are `sessions delete`'s.
type DeleteOptions struct {
	IO    *cmdutil.IOStreams
	Store storeFunc
	// ID is a session ID or a unique prefix of one.
	ID string
}

// NewCmdDelete is `sessions delete ID`; runF replaces the deletion.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{IO: f.IO, Store: storeOf(f)}
	return &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a session",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return deleteRun(opts)
		},
	}
}

func deleteRun(opts *DeleteOptions) error {
	st, _, err := opts.Store()
	if err != nil {
		return err
	}
	id, err := st.Resolve(opts.ID)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	if err := st.Delete(id); err != nil {
		return err
	}
	fmt.Fprintln(opts.IO.Out, "deleted", id)
	return nil
}
