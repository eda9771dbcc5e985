package agentenv

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/permission"
	"github.com/etalab-ia/albert-code/internal/permission/shellcmd"
	"github.com/etalab-ia/albert-code/internal/profile"
	"github.com/etalab-ia/albert-code/internal/prompt"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/sensitive"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// newSandbox builds the sandbox of one workspace from [sandbox].
func newSandbox(workDir string, c *config.Config, lookup func(string) (string, bool)) *sandbox.Sandbox {
	home, ok := "", false
	if lookup != nil {
		home, ok = lookup("HOME")
	}
	if !ok || home == "" {
		home, _ = os.UserHomeDir()
	}
	mode := sandbox.WorkspaceWrite // the ceiling: each call's mode decides below it
	if c.Sandbox.Mode == "off" {
		mode = sandbox.Off
	}
	var writable []string
	for _, w := range c.Sandbox.Writable {
		if w == "~" || len(w) > 1 && w[:2] == "~/" {
			w = filepath.Join(home, w[1:])
		}
		writable = append(writable, w)
	}
	return sandbox.New(sandbox.Config{
		Mode: mode, Backend: sandbox.Backend(c.Sandbox.Backend), WorkDir: workDir, Writable: writable,
		Secrets: sensitive.Secrets(home, c.Home, c.Sandbox.DenyRead...),
		Network: sandbox.Network(c.Sandbox.Network), EnvPassthrough: c.Sandbox.EnvPassthrough,
	})
}

// Sandbox returns the workspace's sandbox, shared by the Env's copies.
func (e *Env) Sandbox() *sandbox.Sandbox {
	e.sb.mu.Lock()
	defer e.sb.mu.Unlock()
	if e.sb.s == nil {
		e.sb.s = newSandbox(e.WorkDir, e.Config, e.lookupEnv)
	}
	return e.sb.s
}

// SandboxNotice is the line faces show once at start when commands are not
// confined, or "".
func (e *Env) SandboxNotice() string {
	return e.Sandbox().Status().Announcement()
}

// confine chooses the mode of each call's commands: read-only for read-only
// profiles and sub-agents, and for a command that ran unasked because the built-in
// read-only allowlist vouched for it; workspace-write for the rest (approved, or
// allowed by the user's own rules or profile).
func confine(prof profile.Profile) func(tool.Info, json.RawMessage, bool) sandbox.Mode {
	readOnly := shellcmd.Defaults()
	return func(info tool.Info, args json.RawMessage, asked bool) sandbox.Mode {
		if prof.ReadOnly || prof.Subagent {
			return sandbox.ReadOnly
		}
		if !asked && info.Name == "bash" {
			if v, ok := readOnly.ClassifyCall(args); ok && v.Level == permission.Always {
				return sandbox.ReadOnly
			}
		}
		return sandbox.WorkspaceWrite
	}
}

// failClosed makes a classifier ask where it would let a command run unasked,
// when no OS sandbox can confine that command.
func failClosed(classify func(json.RawMessage) (permission.Verdict, bool), st sandbox.Status) func(json.RawMessage) (permission.Verdict, bool) {
	if st.Active || st.Mode == sandbox.Off {
		return classify
	}
	return func(args json.RawMessage) (permission.Verdict, bool) {
		v, ok := classify(args)
		if ok && v.Level == permission.Always {
			return permission.Verdict{Level: permission.Ask, Reason: "no OS sandbox is available (" + st.Reason + "), so every command asks"}, true
		}
		return v, ok
	}
}

// sandboxPrompt is what the system prompt says of the sandbox.
func (e *Env) sandboxPrompt() string {
	switch st := e.Sandbox().Status(); {
	case st.Mode == sandbox.Off:
		return prompt.SandboxOff
	case !st.Active:
		return prompt.SandboxMissing
	}
	return prompt.SandboxOn
}

// closeSandbox removes the sandbox's private temporary directory, if one was made;
// a later command makes it anew.
func (e *Env) closeSandbox() {
	if e.sb == nil {
		return
	}
	e.sb.mu.Lock()
	defer e.sb.mu.Unlock()
	if e.sb.s != nil {
		_ = e.sb.s.Close()
	}
}
