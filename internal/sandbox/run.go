package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// Network says when sandboxed commands may open network sockets.
type Network string

const (
	// NetworkAuto: no network in read-only, network in workspace-write (approved
	// commands install packages and fetch modules).
	NetworkAuto Network = ""
	NetworkOn   Network = "on"
	NetworkOff  Network = "off"
)

// ParseNetwork reads [sandbox] network.
func ParseNetwork(s string) (Network, error) {
	switch n := Network(s); n {
	case NetworkAuto, NetworkOn, NetworkOff:
		return n, nil
	case "auto":
		return NetworkAuto, nil
	}
	return "", fmt.Errorf("sandbox network %q: want auto, on or off", s)
}

// Config is the [sandbox] section and the facts of one agent.
type Config struct {
	// Mode Off turns confinement off; the environment is still scrubbed and the
	// command's tree still killed with the agent. Any other value lets each call's
	// mode (WithMode) decide.
	Mode    Mode
	Backend Backend
	WorkDir string
	// Writable are more folders writable in workspace-write.
	Writable []string
	// Secrets are unreadable to commands; nil means sensitive.DefaultSecrets.
	Secrets []string
	Network Network
	// EnvPassthrough names variables kept although they look like secrets.
	EnvPassthrough []string
}

// Sandbox starts commands for one agent. It is safe for concurrent use.
type Sandbox struct {
	cfg     Config
	backend Backend
	reason  string // why there is no backend

	tmpMu  sync.Mutex
	tmpDir string

	nested nestedControl
}

// ErrUnavailable wraps the reason the kernel cannot confine commands.
var ErrUnavailable = errors.New("no OS sandbox is available")

// New checks cfg and picks the backend. A sandbox without a backend still works:
// Active is false and commands run unconfined; callers must then ask before every
// command (fail closed), which Status lets them know.
func New(cfg Config) *Sandbox {
	if cfg.Secrets == nil {
		cfg.Secrets = sensitive.DefaultSecrets()
	}
	s := &Sandbox{cfg: cfg}
	if cfg.Mode != Off {
		s.backend, s.reason = pick(cfg.Backend)
	}
	return s
}

// Status is what faces announce about the sandbox.
type Status struct {
	// Mode is Off when the user turned the sandbox off.
	Mode Mode
	// Active says commands are confined.
	Active  bool
	Backend Backend
	// Reason says why an expected sandbox is not active.
	Reason string
}

// Status reports the sandbox's state.
func (s *Sandbox) Status() Status {
	if s == nil {
		return Status{Mode: Off}
	}
	return Status{Mode: s.cfg.Mode, Active: s.backend != "", Backend: s.backend, Reason: s.reason}
}

// Announcement is the one line every face shows when the sandbox is not confining
// commands, or "".
func (st Status) Announcement() string {
	switch {
	case st.Mode == Off:
		return "The OS sandbox is off (--sandbox off or [sandbox] mode = \"off\"): commands run with all your rights."
	case !st.Active:
		return "No OS sandbox is available (" + st.Reason + "): every command asks before it runs."
	}
	return ""
}

// TempDir returns the private temporary directory, made on first use.
// After Close it is made anew.
func (s *Sandbox) TempDir() (string, error) {
	s.tmpMu.Lock()
	defer s.tmpMu.Unlock()
	if s.tmpDir != "" && exists(s.tmpDir) {
		return s.tmpDir, nil
	}
	dir, err := makeTempDir()
	if err != nil {
		return "", err
	}
	s.tmpDir = dir
	return dir, nil
}

// Close removes the private temporary directory.
func (s *Sandbox) Close() error {
	if s == nil {
		return nil
	}
	s.nested.close()
	s.tmpMu.Lock()
	defer s.tmpMu.Unlock()
	if s.tmpDir == "" {
		return nil
	}
	err := os.RemoveAll(s.tmpDir)
	s.tmpDir = ""
	return err
}

// Prepare readies cmd, built but not started, to run in mode (ModeFrom(ctx) when
// mode is ""): its environment without secrets and with TMPDIR private, and, unless
// the sandbox is off, its program under the backend. The returned function is to
// be called once cmd has started (or failed to). It also reports the variables it
// dropped from the environment.
func (s *Sandbox) Prepare(ctx context.Context, mode Mode, cmd *exec.Cmd) (release func(), err error) {
	if s == nil {
		// No sandbox configured (a library caller): the environment is still
		// scrubbed and the tree still dies with the agent.
		cmd.Env, _ = ScrubEnv(orEnviron(cmd.Env), nil)
		return guardOnly(cmd)
	}
	if mode == "" {
		mode = ModeFrom(ctx)
	}
	cmd.Env, _ = ScrubEnv(orEnviron(cmd.Env), s.cfg.EnvPassthrough)
	if s.cfg.Mode == Off || mode == Off || s.backend == "" {
		// Unconfined, the command still gets the private TMPDIR, as confined.
		if _, err := s.setTempDir(cmd); err != nil {
			return nil, err
		}
		return guardOnly(cmd)
	}
	return s.Confine(mode, cmd)
}

// Confine readies cmd to run in mode as Prepare does, but leaves its environment as
// it is: for a CLI agent that serve starts, which needs its provider key.
func (s *Sandbox) Confine(mode Mode, cmd *exec.Cmd) (release func(), err error) {
	if s == nil || s.cfg.Mode == Off || mode == Off || s.backend == "" {
		return guardOnly(cmd)
	}
	// The system's /tmp is not writable inside: programs that keep state under
	// $TMPDIR (Claude Code's Bash tool does) get the private one.
	tmp, err := s.setTempDir(cmd)
	if err != nil {
		return nil, err
	}
	return confine(cmd, s.backend, s.policy(mode, tmp))
}

// setTempDir points cmd's TMPDIR at the private temporary directory, and returns it.
func (s *Sandbox) setTempDir(cmd *exec.Cmd) (string, error) {
	tmp, err := s.TempDir()
	if err != nil {
		return "", fmt.Errorf("sandbox: make the private temporary directory: %w", err)
	}
	cmd.Env = append(orEnviron(cmd.Env), "TMPDIR="+tmp)
	return tmp, nil
}

// Guard runs cmd under the guardian alone: not confined, but its whole tree,
// including processes that leave its group, is stopped with it and dies with this
// process.
func Guard(cmd *exec.Cmd) (release func(), err error) { return guardOnly(cmd) }

func (s *Sandbox) policy(mode Mode, tmp string) Policy {
	net := s.cfg.Network == NetworkOn || s.cfg.Network == NetworkAuto && mode == WorkspaceWrite
	p := Policy{Mode: mode, WorkDir: s.cfg.WorkDir, TempDir: tmp, Writable: s.cfg.Writable,
		Secrets: s.cfg.Secrets, Network: net, Backend: s.backend}
	if mode == WorkspaceWrite && s.cfg.WorkDir != "" {
		p.ControlRoots = s.nested.roots(realPath(s.cfg.WorkDir))
	}
	return p
}

func orEnviron(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return env
}

// ExitSetup is the launcher's exit status when the sandbox could not be set up and
// the command did not run (launcher_linux.c's EXIT_SETUP).
const ExitSetup = 125

// refusals are what programs print when the sandbox refused them something.
var refusals = []string{"Permission denied", "Read-only file system", "Operation not permitted", "Network is unreachable"}

// Explain returns a note for a command's output that shows a refusal the sandbox
// may have caused, saying what the mode allows and how the user widens it; "" when
// the output shows none or nothing was confined.
func (s *Sandbox) Explain(mode Mode, output string) string {
	if s == nil || s.cfg.Mode == Off || mode == Off || s.backend == "" {
		return ""
	}
	found := false
	for _, r := range refusals {
		found = found || strings.Contains(output, r)
	}
	if !found {
		return ""
	}
	switch mode {
	case ReadOnly:
		return "[sandbox] this command ran read-only, without network, because it looked read-only; " +
			"a command that must write or connect is asked about and then runs in workspace-write."
	default:
		return "[sandbox] this command ran in workspace-write: it may write the workspace and $TMPDIR only, and " +
			"never .git/config, .git/hooks or this tool's configuration. If it needs another folder (a build cache), " +
			"the user can add it to [sandbox] writable in their global config."
	}
}
