package telegram

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// stderrTail is how much of a silent agent's stderr the chat is shown;
// judgement: the last lines are where the error is.
const stderrTail = 1500

// chatConfig merges the YAML's default, the chat's section and its overrides.
func (b *Bot) chatConfig(chat int64) ChatConfig {
	c := b.currentSettings().Chat(chat)
	o := b.opts.Overrides.Get(chat)
	return c.merge(ChatConfig{Model: o[KeyModel], Effort: o[KeyEffort], SystemPrompt: o[KeySystemPrompt], AppendSystemPrompt: o[KeyAppendSystemPrompt]})
}

// workspaceName is the chat's workspace under the root: the configured one, or
// chat_<id>.
func workspaceName(chat int64, cfg ChatConfig) string {
	if cfg.Workspace != "" {
		return cfg.Workspace
	}
	return fmt.Sprintf("chat_%d", chat)
}

// inWorkspace resolves the chat's workspace and takes its lock, shared with the
// API, MCP and cron runs in the same folder, then calls f.
func (b *Bot) inWorkspace(ctx context.Context, m *models.Message, f func(ctx context.Context, ws string, cfg ChatConfig)) {
	chat := m.Chat.ID
	cfg := b.chatConfig(chat)
	ws, err := b.opts.Root.Workspace(workspaceName(chat, cfg), true)
	if err != nil {
		b.say(ctx, chat, "workspace error: "+err.Error())
		return
	}
	for _, st := range b.opts.Locks.Busy() {
		if st.Workspace == ws {
			b.say(ctx, chat, "waiting: another run (API, MCP or cron) is using this workspace; yours starts when it ends")
			break
		}
	}
	release, err := b.opts.Locks.Acquire(ctx, ws)
	var full *workspace.QueueFullError
	switch {
	case errors.As(err, &full):
		b.say(ctx, chat, fmt.Sprintf("the workspace is busy with %d other runs: try again in %s", full.Waiting, full.RetryAfter.Round(time.Second)))
		return
	case err != nil:
		b.stopped(ctx, chat)
		return
	}
	defer release()
	f(ctx, ws, cfg)
}

// runAgent runs prompt in ws and sends the answer, its files first.
func (b *Bot) runAgent(ctx context.Context, m *models.Message, ws string, cfg ChatConfig, prompt string, fresh bool) {
	chat := m.Chat.ID
	typing, stop := context.WithCancel(ctx)
	b.jobs.Go(func() { b.opts.Sender.Typing(typing, chat) })
	req := backend.Request{
		Prompt: prompt, Workspace: ws, Model: cfg.Model, Thinking: cfg.Effort,
		SystemPrompt: cfg.SystemPrompt, AppendSystemPrompt: appendPrompt(cfg.AppendSystemPrompt),
		Continue:     (cfg.Continue == nil || *cfg.Continue) && !fresh,
		StreamTokens: b.opts.DraftEvery > 0,
	}
	var emit func(backend.Event)
	if b.opts.DraftEvery > 0 {
		d := b.newDrafter(chat)
		emit = d.emit
		b.jobs.Go(func() { d.run(typing, b.opts.DraftEvery) })
	}
	started := time.Now()
	res, err := b.opts.Agent.Run(ctx, req, emit)
	stop()
	b.log.Info("telegram: run ended", "chat", chat, "took", time.Since(started).Round(time.Millisecond), "exit", res.ExitCode, "stopped", res.Stopped, "err", err)
	if ctx.Err() != nil {
		b.stopped(ctx, chat)
		return
	}
	if err != nil {
		b.say(ctx, chat, "error: "+err.Error())
		return
	}
	text, paths := extractSendFiles(answerText(res))
	for _, p := range paths {
		b.sendWorkspaceFile(ctx, chat, ws, p)
	}
	if text == "" {
		return
	}
	if _, err := b.opts.Sender.SendMarkdown(ctx, chat, int64(m.ID), text); err != nil {
		b.log.Warn("telegram: answer not sent", "chat", chat, "err", err)
	}
}

// stopped tells the chat a run ended early, unless the user asked (they were
// answered "cancelled" already).
func (b *Bot) stopped(ctx context.Context, chat int64) {
	if errors.Is(context.Cause(ctx), errShutdown) {
		notice, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		b.say(notice, chat, "stopped: the bot is shutting down; send your message again once it is back")
	}
}

// answerText is what the chat sees of a run: its text, or why there is none.
func answerText(res backend.Result) string {
	text := strings.TrimSpace(res.Text)
	var notes []string
	switch {
	case res.ProviderError != "":
		notes = append(notes, "The model provider refused the request: "+res.ProviderError)
	case res.AgentError != "":
		notes = append(notes, "The agent failed: "+res.AgentError)
	case res.Stopped != "" && res.Stopped != "exited":
		notes = append(notes, fmt.Sprintf("The run was stopped (%s).", res.Stopped))
	}
	if text == "" && len(notes) == 0 {
		notes = append(notes, fmt.Sprintf("(agent exited with code %d and no output)", res.ExitCode))
	}
	if text == "" && strings.TrimSpace(res.Stderr) != "" {
		tail := strings.TrimSpace(res.Stderr)
		if len(tail) > stderrTail {
			cut := len(tail) - stderrTail
			for cut < len(tail) && !utf8.RuneStart(tail[cut]) {
				cut++
			}
			tail = "…" + tail[cut:]
		}
		notes = append(notes, "```\n"+strings.ReplaceAll(tail, "```", "'''")+"\n```")
	}
	return strings.TrimSpace(strings.Join(append([]string{text}, notes...), "\n\n"))
}

// sendWorkspaceFile sends the file rel of the chat's workspace, or says why not.
func (b *Bot) sendWorkspaceFile(ctx context.Context, chat int64, ws, rel string) {
	path, info, err := resolveInWorkspace(ws, rel)
	if err != nil {
		b.log.Warn("telegram: file not sent", "chat", chat, "path", rel, "err", err)
		b.say(ctx, chat, openError(rel, err))
		return
	}
	if why := checkSendable(rel, info); why != "" {
		b.say(ctx, chat, why)
		return
	}
	if _, err := b.opts.Sender.SendFile(ctx, chat, path); err != nil {
		b.log.Warn("telegram: file not sent", "chat", chat, "path", rel, "err", err)
		b.say(ctx, chat, fmt.Sprintf("could not send %s: %v", rel, err))
	}
}
