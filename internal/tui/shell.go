package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/tool"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// A line starting with "!" runs in the shell without the model, like Claude Code's
// bash mode: the user typed the command, so no approval is asked. It runs through
// the built-in bash tool (same process group, kill on cancel and output cap as the
// agent's own calls) and shows as a bash tool widget. Its command and output are
// handed to the model at the start of the next prompt, then forgotten.

// shellDoneMsg ends a shell command.
type shellDoneMsg struct {
	command string
	res     builtin.ShellResult
	gen     int
}

// shellCommand returns the command of a "!" line, and whether the line is one: a
// lone "!" is not.
func shellCommand(line string) (string, bool) {
	s := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(s, "!") {
		return "", false
	}
	cmd := strings.TrimSpace(s[1:])
	return cmd, cmd != ""
}

// runShell starts a "!" command as a turn: Esc interrupts it and a prompt sent
// meanwhile gets the "still working" notice.
func (m *Model) runShell(line, command string) tea.Cmd {
	m.chat.AddUser(line)
	m.chat.Bottom()
	m.shellRuns++
	args, _ := json.Marshal(builtin.BashParams{Command: command})
	te := agent.ToolEvent{ID: fmt.Sprintf("user-shell-%d", m.shellRuns), Name: "bash", Arguments: args}
	env := builtin.Env{WorkDir: m.o.WorkDir, Sandbox: m.o.Sandbox}
	gen := m.gen
	cmd := m.startTurn(func(ctx context.Context, emit func(agent.Event)) tea.Msg {
		start := te
		emit(agent.Event{Kind: agent.EventToolCallStart, Tool: &start})
		progress := func(s string) {
			upd := te
			emit(agent.Event{Kind: agent.EventToolCallUpdate, Tool: &upd, Text: s})
		}
		// The agent's default timeout is too short for a command the user chose
		// to wait for (a build, a test run): the tool's ceiling applies instead.
		// The user typed it: it runs as an approved command would.
		ctx = sandbox.WithMode(ctx, sandbox.WorkspaceWrite)
		res, err := builtin.RunShell(ctx, env, command, builtin.DefaultBashMaxTimeout, progress)
		tr := res.Result()
		if err != nil {
			res = builtin.ShellResult{Output: err.Error(), Status: "failed"}
			tr = tool.Result{Output: err.Error(), IsError: true}
		}
		done := te
		done.Output, done.IsError, done.Truncated = tr.Output, tr.IsError, tr.Truncated
		emit(agent.Event{Kind: agent.EventToolCallResult, Tool: &done})
		if ctx.Err() != nil {
			emit(agent.Event{Kind: agent.EventTurnEnd, Stop: agent.StopCancelled})
		}
		return shellDoneMsg{command: command, res: res, gen: gen}
	})
	m.shell = true
	return cmd
}

// shellDone keeps the command's outcome for the next prompt and ends the turn.
func (m *Model) shellDone(msg shellDoneMsg) {
	m.shell = false
	m.shellNotes = append(m.shellNotes, shellNote(msg.command, msg.res))
	m.turnDone(nil)
}

// withShellNotes puts the pending shell notes before a prompt and forgets them.
func (m *Model) withShellNotes(prompt string) string {
	if len(m.shellNotes) == 0 {
		return prompt
	}
	notes := strings.Join(m.shellNotes, "\n\n")
	m.shellNotes = nil
	return notes + "\n\n" + prompt
}

// shellNote tells the model what the user ran and what came of it.
func shellNote(command string, res builtin.ShellResult) string {
	status := "exit 0"
	switch {
	case res.Stopped && strings.HasPrefix(res.Status, "timed out"):
		status = "timed out, killed"
	case res.Stopped:
		status = "interrupted by the user"
	case strings.HasPrefix(res.Status, "exit code "):
		status = "exit " + strings.TrimPrefix(res.Status, "exit code ")
	case res.Status != "":
		status = res.Status
	}
	out := res.Output
	fence := strings.Repeat("`", max(3, longestBackticks(out)+1))
	return fmt.Sprintf("The user ran %s in the shell (%s):\n%s\n%s\n%s", inlineCode(command), status, fence, strings.TrimRight(out, "\n"), fence)
}

// inlineCode quotes s as Markdown inline code that its own backticks cannot close.
func inlineCode(s string) string {
	n := longestBackticks(s)
	if n == 0 {
		return "`" + s + "`"
	}
	ticks := strings.Repeat("`", n+1)
	return ticks + " " + s + " " + ticks
}

// longestBackticks is the longest run of backticks in s: a fence must be longer.
func longestBackticks(s string) int {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}
