// Package sessions is `albert-code sessions`: list, show and delete the saved
// sessions of the session store the configuration names.
package sessions

import (
	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/session"
)

// NewCmdSessions is `sessions` and its subcommands.
func NewCmdSessions(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "sessions", Short: "List, show and delete saved sessions"}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdShow(f, nil), NewCmdDelete(f, nil))
	return cmd
}

// storeFunc opens the session store of the working folder's configuration and
// says which folder that is (list keeps its sessions).
type storeFunc func() (st *session.Store, workDir string, err error)

func storeOf(f *cmdutil.Factory) storeFunc {
	return func() (*session.Store, string, error) {
		e, err := f.EnvHere()
		if err != nil {
			return nil, "", err
		}
		defer e.Close()
		return e.SessionStore(), e.WorkDir, nil
	}
}
