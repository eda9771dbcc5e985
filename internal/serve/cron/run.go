package cron

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// meta is a run folder's meta.json: written when the run starts, with the
// outcome fields null, and rewritten when it ends.
type meta struct {
	Name               string         `json:"name"`
	Schedule           string         `json:"schedule"`
	Timezone           string         `json:"timezone"`
	Model              string         `json:"model"`
	Effort             string         `json:"effort"`
	Instruction        string         `json:"instruction"`
	SystemPrompt       string         `json:"system_prompt"`
	AppendSystemPrompt string         `json:"append_system_prompt"`
	NoContinue         bool           `json:"no_continue"`
	Timeout            string         `json:"timeout,omitempty"`
	Workspace          string         `json:"workspace"`
	WorkspaceSlug      string         `json:"workspace_slug"`
	FiredAt            time.Time      `json:"fired_at"`
	StartedAt          time.Time      `json:"started_at"`
	FinishedAt         *time.Time     `json:"finished_at"`
	ExitCode           *int           `json:"exit_code"`
	Stopped            string         `json:"stopped,omitempty"`
	Error              *string        `json:"error"`
	SessionID          string         `json:"session_id,omitempty"`
	Usage              *backend.Usage `json:"usage,omitempty"`
	TelegramChatID     int64          `json:"telegram_chat_id,omitempty"`
}

// execute runs j for the tick fired: the run folder and the notification. The
// caller records the summary it returns.
func (s *Scheduler) execute(ctx context.Context, j *Job, fired time.Time) *Summary {
	sum := &Summary{Job: j.Name, Schedule: j.Schedule.Spec, FiredAt: fired, Status: StatusFailed}
	text, stderr := s.runJob(ctx, j, fired, sum)
	if j.TelegramChatID != 0 {
		s.notify(ctx, j, sum, text, stderr)
	}
	return sum
}

// runJob takes the workspace lock, runs the agent and fills the run folder; it
// returns the answer and stderr for the notification.
func (s *Scheduler) runJob(ctx context.Context, j *Job, fired time.Time, sum *Summary) (text, stderr string) {
	fail := func(format string, a ...any) (string, string) {
		sum.Error = fmt.Sprintf(format, a...)
		s.log.Error("cron: job failed", "job", j.Name, "err", sum.Error)
		return "", ""
	}
	ws, err := s.opts.Root.Workspace(j.Workspace, false)
	if err != nil {
		return fail("workspace %q: %v", j.Workspace, err)
	}
	release, err := s.opts.Locks.Acquire(ctx, ws)
	if err != nil {
		return fail("workspace %q: lock: %v", j.Workspace, err)
	}
	defer release()
	started := s.clock.Now()
	sum.StartedAt = &started

	slug := workspaceSlug(ws)
	earlier, err := s.hist.earlierRuns(slug, j.Name)
	if err != nil {
		s.log.Warn("cron: earlier runs not listed, the hint is left out", "job", j.Name, "err", err)
	}
	dir := filepath.Join(s.hist.root, "history", slug, runDirName(fired, j.Name))
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fail("history folder: %v", err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fail("history folder: %v", err)
	}
	s.hist.added(slug, j.Name, dir)
	sum.HistoryDir = dir

	local := fired.In(j.Schedule.Location)
	appendPrompt := expand(j.AppendSystemPrompt, j.Name, local, ws)
	if h := s.hist.hint(j.Name, earlier); h != "" {
		appendPrompt = joinParagraphs(appendPrompt, h)
	}
	req := backend.Request{
		Prompt:             expand(j.Instruction, j.Name, local, ws),
		Workspace:          ws,
		Model:              j.Model,
		Thinking:           j.Effort,
		SystemPrompt:       expand(j.SystemPrompt, j.Name, local, ws),
		AppendSystemPrompt: appendPrompt,
		Continue:           !j.NoContinue,
		Timeout:            j.Timeout,
	}
	m := &meta{
		Name: j.Name, Schedule: j.Schedule.Spec, Timezone: j.Schedule.Location.String(), Model: j.Model, Effort: j.Effort,
		Instruction: req.Prompt, SystemPrompt: req.SystemPrompt, AppendSystemPrompt: req.AppendSystemPrompt,
		NoContinue: j.NoContinue, Workspace: ws, WorkspaceSlug: slug, FiredAt: fired, StartedAt: started,
		TelegramChatID: j.TelegramChatID,
	}
	if j.Timeout > 0 {
		m.Timeout = j.Timeout.String()
	}
	if err := writeJSON(filepath.Join(dir, metaFile), m); err != nil {
		return fail("history folder: %v", err)
	}
	s.log.Info("cron: job started", "job", j.Name, "tick", fired, "workspace", ws)

	res, runErr := s.opts.Agent.Run(ctx, req)
	finished := s.clock.Now()
	sum.FinishedAt, m.FinishedAt = &finished, &finished
	code := res.ExitCode
	if runErr != nil && code == 0 {
		code = -1 // the original's: the agent could not run at all
	}
	sum.ExitCode, m.ExitCode = &code, &code
	if res.Stopped != "" && res.Stopped != "exited" {
		sum.Stopped, m.Stopped = res.Stopped, res.Stopped
	}
	m.SessionID = res.SessionID
	if !res.Usage.IsZero() {
		m.Usage = &res.Usage
	}
	switch {
	case runErr != nil:
		sum.Error = runErr.Error()
	case res.ProviderError != "":
		sum.Error = "provider: " + res.ProviderError
	case res.AgentError != "":
		sum.Error = "agent: " + res.AgentError
	case code == 0 && sum.Stopped == "":
		sum.Status = StatusOK
	}
	if sum.Error != "" {
		m.Error = &sum.Error
	}
	sum.Text, sum.TextTruncated = head(res.Text, summaryTextCap)
	sum.Stderr = tail(res.Stderr, summaryStderrCap)
	for name, content := range map[string]string{stdoutFile: res.Stdout, stderrFile: res.Stderr, resultFile: res.Text} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			s.log.Error("cron: cannot keep a run's output", "job", j.Name, "file", name, "err", err)
		}
	}
	if err := writeJSON(filepath.Join(dir, metaFile), m); err != nil {
		s.log.Error("cron: cannot complete meta.json", "job", j.Name, "err", err)
	}
	s.log.Info("cron: job finished", "job", j.Name, "tick", fired, "status", sum.Status, "exit_code", code)
	return res.Text, res.Stderr
}

// notify sends the outcome and remembers the messages, in the run folder and
// in the inbox the bot reads. It outlives a shutdown's cancel for a while, so
// the last run of a stopping server is still reported.
func (s *Scheduler) notify(ctx context.Context, j *Job, sum *Summary, text, stderr string) {
	rec := telegramRecord{ChatID: j.TelegramChatID}
	if s.opts.Notifier == nil {
		rec.Error = "no notifier: set ALBERT_CODE_TELEGRAM_MODE_TOKEN"
	} else {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), notifyTimeout)
		defer cancel()
		ids, err := s.opts.Notifier.Notify(ctx, Notification{
			ChatID: j.TelegramChatID, Job: j.Name, FiredAt: sum.FiredAt, Failed: sum.Status != StatusOK,
			Text: notificationText(j.Name, sum, text, stderr), HistoryDir: sum.HistoryDir,
		})
		rec.MessageIDs = ids
		if err != nil {
			rec.Error = err.Error()
		}
	}
	sum.TelegramMessageIDs, sum.NotifyError = rec.MessageIDs, rec.Error
	if rec.Error != "" {
		s.log.Warn("cron: notification not sent", "job", j.Name, "chat", j.TelegramChatID, "err", rec.Error)
	}
	if sum.HistoryDir != "" {
		if err := writeJSON(filepath.Join(sum.HistoryDir, telegramFile), rec); err != nil {
			s.log.Error("cron: cannot write telegram.json", "job", j.Name, "err", err)
		}
	}
	if len(rec.MessageIDs) == 0 {
		return
	}
	instruction, _ := head(j.Instruction, inboxInstructionCap)
	result, _ := head(text, inboxResultCap)
	finished := s.clock.Now()
	if sum.FinishedAt != nil {
		finished = *sum.FinishedAt
	}
	entries := make([]InboxEntry, len(rec.MessageIDs))
	for i, id := range rec.MessageIDs {
		entries[i] = InboxEntry{ChatID: j.TelegramChatID, MessageID: id, Job: j.Name, FiredAt: sum.FiredAt, FinishedAt: finished,
			Instruction: instruction, Result: result, HistoryDir: sum.HistoryDir}
	}
	if err := s.hist.remember(entries); err != nil {
		s.log.Error("cron: cannot remember the notification", "job", j.Name, "err", err)
	}
}

func joinParagraphs(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n\n" + b
}
