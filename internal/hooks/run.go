package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/proctrack"
	"github.com/etalab-ia/albert-code/internal/sandbox"
)

// decision is a hook's answer.
type decision struct {
	deny      bool
	reason    string
	arguments json.RawMessage
}

// reply is the JSON a hook may print on stdout. Empty output means allow.
type reply struct {
	Decision  string          `json:"decision"`
	Reason    string          `json:"reason"`
	Arguments json.RawMessage `json:"arguments"`
}

// exitDeny is the exit status that denies with stderr as the reason, the shortest
// way for a shell script to say no (the convention Claude Code's hooks use).
const exitDeny = 2

// maxOutput bounds what is read of a hook's stdout and stderr.
const maxOutput = 64 << 10

// run runs h with ev on stdin and reads its decision. The error names the hook and
// says what went wrong: a timeout, an exit status with the end of stderr, a reply
// that is not a decision.
func (r *Runner) run(ctx context.Context, h hook, ev event) (decision, error) {
	input, err := json.Marshal(ev)
	if err != nil {
		return decision{}, r.failure(h, fmt.Errorf("encode the event: %w", err))
	}
	// A hook runs to its own timeout even when the turn was cancelled: an
	// after_turn hook is often the one that reports the cancel.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), h.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", h.Command)
	cmd.Dir = r.workDir
	cmd.Env = append(os.Environ(), "ALBERT_CODE_HOOK_EVENT="+string(ev.Event))
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr limited
	stdout.max, stderr.max = maxOutput, maxOutput
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Its own process group, stopped whole on timeout: sh -c leaves the real
	// command as a child that would otherwise outlive the stop. The sandbox's
	// guardian, in the group, sends the signal on to the command's whole tree.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 3 * time.Second
	release, err := r.Sandbox.Prepare(ctx, sandbox.WorkspaceWrite, cmd)
	if err != nil {
		return decision{}, r.failure(h, err)
	}
	err = cmd.Start()
	release()
	if err == nil {
		group := proctrack.Started(ctx, cmd.Process.Pid)
		err = cmd.Wait()
		proctrack.Ended(ctx, group)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return decision{}, r.failure(h, fmt.Errorf("timed out after %s and was killed", h.Timeout))
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == exitDeny && ev.Event != config.HookAfterTurn {
		reason := strings.TrimSpace(stderr.String())
		if reason == "" {
			reason = "a hook refused it (exit status 2) without saying why"
		}
		return decision{deny: true, reason: reason}, nil
	}
	if err != nil {
		msg := err.Error()
		if s := strings.TrimSpace(stderr.String()); s != "" {
			msg += ": " + lastLine(s)
		}
		return decision{}, r.failure(h, errors.New(msg))
	}
	d, err := parseReply(stdout.Bytes(), ev.Event)
	if err != nil {
		return decision{}, r.failure(h, err)
	}
	return d, nil
}

func (r *Runner) failure(h hook, err error) error {
	return fmt.Errorf("%s hook %q (%s) failed: %w", h.Event, h.Command, h.Source, err)
}

func parseReply(out []byte, ev config.HookEvent) (decision, error) {
	out = bytes.TrimSpace(out)
	if len(out) == 0 || ev == config.HookAfterTurn {
		return decision{}, nil
	}
	var rp reply
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rp); err != nil {
		return decision{}, fmt.Errorf(`its output is not a decision (%v): print nothing, or {"decision": "allow"|"deny", "reason": "...", "arguments": {...}}`, err)
	}
	switch rp.Decision {
	case "", "allow":
	case "deny":
		if strings.TrimSpace(rp.Reason) == "" {
			rp.Reason = "a hook refused it without saying why"
		}
		return decision{deny: true, reason: rp.Reason}, nil
	default:
		return decision{}, fmt.Errorf("decision %q is not allow or deny", rp.Decision)
	}
	if rp.Arguments != nil && string(rp.Arguments) != "null" {
		if ev != config.HookBeforeTool {
			return decision{}, errors.New("only before_tool hooks can rewrite arguments")
		}
		if a := bytes.TrimSpace(rp.Arguments); len(a) == 0 || a[0] != '{' {
			return decision{}, errors.New("arguments must be a JSON object")
		}
		return decision{arguments: rp.Arguments}, nil
	}
	return decision{}, nil
}

// limited keeps the first max bytes written to it and drops the rest.
type limited struct {
	bytes.Buffer
	max int
}

func (l *limited) Write(b []byte) (int, error) {
	if room := l.max - l.Len(); room > 0 {
		l.Buffer.Write(b[:min(room, len(b))])
	}
	return len(b), nil
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
