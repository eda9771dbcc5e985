package tui

import (
	"context"
	"errors"
	"strings"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/profile"
	"github.com/etalab-ia/albert-code/internal/slash"
)

// trusted says whether the open conversation's folder is trusted; before one is
// open it is taken as trusted (no marker, no hint).
func (m *Model) trusted() bool {
	return m.conv == nil || !m.conv.Untrusted
}

// TrustFolder trusts the working folder for good, after "Not now" or a refusal, and
// reopens the conversation so the agent may change it (/trust).
func (m *Model) TrustFolder(context.Context) error {
	if m.o.TrustFolder == nil {
		return errors.New("/trust is not available here; run albert-code trust in the folder")
	}
	if err := m.idle("/trust"); err != nil {
		return err
	}
	if err := m.o.TrustFolder(); err != nil {
		return err
	}
	m.trustHinted = false
	m.chat.AddNotice("this folder is now trusted: the agent may change its files (albert-code trust --remove undoes it)")
	m.later(m.openConversation(OpenRequest{Resume: m.conv.ID()}))
	return nil
}

// hintTrust says, where a call was refused because the folder is not trusted, how
// to trust it: once per conversation, since every later refusal says the same.
func (m *Model) hintTrust(ev agent.Event) {
	if ev.Kind != agent.EventToolCallResult || ev.Tool == nil || !ev.Tool.Refused || m.trustHinted || m.trusted() {
		return
	}
	if !strings.Contains(ev.Tool.Output, "not trusted") {
		return
	}
	m.trustHinted = true
	m.chat.AddNotice("this folder is not trusted, so the agent may not change it: /trust trusts it and reopens the session (or run albert-code trust)")
}

// safetyMarks are the footer's warnings: an untrusted folder, calls that run unasked.
func (m *Model) safetyMarks() string {
	var marks []string
	if m.conv != nil && !m.trusted() {
		marks = append(marks, "untrusted folder (/trust)")
	}
	if m.profile == profile.AutoApprove {
		marks = append(marks, "calls run unasked")
	}
	if len(marks) == 0 {
		return ""
	}
	return " · " + strings.Join(marks, " · ")
}

// registerTrust adds /trust to reg, unless a face's registry already has one.
func registerTrust(reg *slash.Registry) {
	if _, ok := reg.Lookup("trust"); ok {
		return
	}
	_ = reg.Register(slash.Command{Name: "trust", Description: "Trust this folder for good, so the agent may change it (reopens the session)",
		Faces: []slash.Face{slash.FaceTUI}, Run: func(ctx context.Context, h slash.Host, _ string) error {
			t, ok := h.(interface{ TrustFolder(context.Context) error })
			if !ok {
				return errors.New("/trust works in the terminal UI only")
			}
			return t.TrustFolder(ctx)
		}})
}
