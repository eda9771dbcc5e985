package root

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/app/setup"
	"github.com/etalab-ia/albert-code/internal/chat"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/trust"
	"github.com/etalab-ia/albert-code/internal/tui"
	"github.com/etalab-ia/albert-code/internal/tui/input"
)

// pickSession is the value --resume takes without an ID: the UI opens the picker.
const pickSession = "\x00pick"

// runTUI opens the interactive terminal UI in the working directory.
func runTUI(cmd *cobra.Command, fac *cmdutil.Factory, ws agentWorkspace, f runFlags, prompt string) error {
	wd := ws.dir
	home, err := fac.HomeDir()
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	closeLog := cmdutil.OpenLogFile(home)
	defer closeLog()
	hist, err := input.LoadHistory(home)
	if err != nil {
		fmt.Fprintln(fac.IO.ErrOut, "albert-code: warning:", err)
	}
	var quotaOnce sync.Once
	o := tui.Options{
		Color:         fac.ColorWanted(),
		WorkDir:       wd,
		History:       hist,
		InitialPrompt: prompt,
		Continue:      f.cont,
		Resume:        f.resume,
		ShowSetup:     f.setup,
		Open: func(r tui.OpenRequest) (*tui.Conversation, error) {
			e, err := ws.load(fac)
			if err != nil {
				return nil, err
			}
			s, err := chat.Open(e, chat.Options{Continue: r.Continue, Resume: r.Resume, Approver: r.Approver, Asker: r.Asker,
				Limits: agentenv.Limits{MaxTurns: f.maxTurns, MaxPrice: f.maxPrice}})
			if err != nil {
				e.Close()
				return nil, err
			}
			// Closing the conversation stops the MCP servers its Env started.
			c := &tui.Conversation{Session: s, Untrusted: !e.Trusted, Release: e.Close}
			quotaOnce.Do(func() { c.Notices = e.QuotaWarnings(cmd.Context()) })
			return c, nil
		},
		ConfigText: func() (string, error) {
			e, err := ws.load(fac)
			if err != nil {
				return "", err
			}
			defer e.Close()
			var b bytes.Buffer
			err = config.Show(&b, e.Config)
			return b.String(), err
		},
	}
	if f.resume == pickSession {
		o.Resume, o.PickSession = "", true
	}
	e, err := ws.load(fac)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	o.Setup = setup.FromEnv(e, fac.LookupEnv)
	o.Sandbox = e.Sandbox()
	o.Notify, o.UpdateNotice = deskFor(fac, e.Config)
	e.Close()
	if !f.trust {
		o.Trust = trustQuestion(home, wd)
	}
	o.TrustFolder = func() error {
		ts, err := trust.Open(home)
		if err != nil {
			return err
		}
		return ts.Trust(wd)
	}

	m := tui.New(o)
	p := tea.NewProgram(m, tea.WithContext(cmd.Context()))
	m.SetSender(p.Send)
	_, err = p.Run()
	if c := m.Conversation(); c != nil {
		c.Close()
		if id := c.ID(); id != "" && c.Title() != "" {
			fmt.Fprintf(fac.IO.Out, "Resume this session with: albert-code --resume %s\n", id)
		}
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return cmdutil.Failed(err)
	}
	return nil
}

// trustQuestion asks about wd when nobody decided about it or its parents yet; the
// home folder itself is never asked about, as in the original (notes §2.12).
func trustQuestion(home, wd string) *tui.Trust {
	ts, err := trust.Open(home)
	if err != nil {
		return nil
	}
	if userHome, err := os.UserHomeDir(); err == nil && filepath.Clean(userHome) == filepath.Clean(wd) {
		return nil
	}
	if st, err := ts.Status(wd); err != nil || st != trust.Unknown {
		return nil
	}
	return &tui.Trust{Dir: wd, Decide: func(yes, remember bool) error {
		if !remember {
			return nil
		}
		if yes {
			return ts.Trust(wd)
		}
		return ts.Untrust(wd)
	}}
}
