package acp

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/tool"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// terminalCleanup bounds the kill and release sent after a cancelled or timed-out
// command: the editor answers at once or is gone (a judgement).
const terminalCleanup = 5 * time.Second

// editorBash runs bash's commands in an editor terminal, which the editor shows
// live inside the tool call.
func (ss *session) editorBash(info tool.Info) tool.Tool {
	return tool.New(tool.Def[builtin.BashParams]{
		Info: info,
		Run: func(ctx context.Context, call tool.Call, p builtin.BashParams) (tool.Result, error) {
			if strings.TrimSpace(p.Command) == "" {
				return tool.Errorf("command is empty"), nil
			}
			if p.Timeout < 0 {
				return tool.Errorf("timeout must be a positive number of seconds"), nil
			}
			timeout := builtin.DefaultBashTimeout
			if p.Timeout > 0 {
				timeout = min(time.Duration(p.Timeout)*time.Second, builtin.DefaultBashMaxTimeout)
			}
			return ss.runInTerminal(ctx, call.ID, p.Command, timeout)
		},
	})
}

func (ss *session) runInTerminal(ctx context.Context, callID, command string, timeout time.Duration) (tool.Result, error) {
	conn, sid := ss.srv.conn, sdk.SessionId(ss.id)
	created, err := conn.CreateTerminal(ctx, sdk.CreateTerminalRequest{
		SessionId: sid, Command: "bash", Args: []string{"-c", command}, Cwd: &ss.cwd,
		OutputByteLimit: sdk.Ptr(builtin.DefaultMaxOutputBytes),
	})
	if err != nil {
		return tool.Result{}, fmt.Errorf("terminal/create: %w", err)
	}
	term := created.TerminalId
	ss.terminals.Store(callID, term)
	ss.send(ctx, sdk.UpdateToolCall(sdk.ToolCallId(callID), sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolTerminalRef(term)})))
	cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), terminalCleanup)
	defer cancel()
	defer func() {
		_, _ = conn.ReleaseTerminal(cleanup, sdk.ReleaseTerminalRequest{SessionId: sid, TerminalId: term})
	}()

	waitCtx, stopWait := context.WithTimeout(ctx, timeout)
	defer stopWait()
	stopped := ""
	if _, err := conn.WaitForTerminalExit(waitCtx, sdk.WaitForTerminalExitRequest{SessionId: sid, TerminalId: term}); err != nil {
		switch {
		case ctx.Err() != nil:
			stopped = "command was cancelled; the terminal was killed"
		case waitCtx.Err() != nil:
			stopped = fmt.Sprintf("command timed out after %gs; the terminal was killed", timeout.Seconds())
		default:
			return tool.Result{}, fmt.Errorf("terminal/wait_for_exit: %w", err)
		}
		_, _ = conn.KillTerminal(cleanup, sdk.KillTerminalRequest{SessionId: sid, TerminalId: term})
	}
	out, err := conn.TerminalOutput(cleanup, sdk.TerminalOutputRequest{SessionId: sid, TerminalId: term})
	if err != nil {
		return tool.Result{}, fmt.Errorf("terminal/output: %w", err)
	}
	output := out.Output
	if output == "" {
		output = "(no output)"
	}
	if out.Truncated {
		output = "[the beginning of the output was cut]\n" + output
	}
	res := tool.Result{Output: output, Truncated: out.Truncated}
	switch st := out.ExitStatus; {
	case stopped != "":
		res.Output, res.IsError = stopped+"\n\n"+output, true
	case st != nil && st.Signal != nil:
		res.Output, res.IsError = fmt.Sprintf("%s\n\nkilled by signal %s", output, *st.Signal), true
	case st != nil && st.ExitCode != nil && *st.ExitCode != 0:
		res.Output, res.IsError = fmt.Sprintf("%s\n\nexit code %d", output, *st.ExitCode), true
	}
	return res, nil
}
