package telegram

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

const allowA = "allowed_chats: [1001]\n"

func TestTextRunsTheAgentInTheChatWorkspace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA+"default: {model: m-yaml, effort: low, append_system_prompt: be brief}\n", nil)
	id := f.api.SendText(chatA, alice, "hello **agent**")
	got := f.last(chatA, 1)
	if got != "echo: hello agent" { // Markdown rendered: the bold is markup
		t.Errorf("answer %q", got)
	}
	reqs := f.agent.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d runs", len(reqs))
	}
	r := reqs[0]
	if r.Workspace != filepath.Join(f.root.Dir(), "chat_1001") || r.Model != "m-yaml" || r.Thinking != "low" || !r.Continue {
		t.Errorf("request %+v", r)
	}
	if !strings.HasPrefix(r.AppendSystemPrompt, systemHint) || !strings.HasSuffix(r.AppendSystemPrompt, "\n\nbe brief") {
		t.Errorf("append %q", r.AppendSystemPrompt)
	}
	if sent := f.api.Messages(chatA); sent[0].ReplyTo != id {
		t.Errorf("the answer replies to %d, want %d", sent[0].ReplyTo, id)
	}
}

func TestDenyByDefault(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "allowed_chats: [1001]\nchats:\n  1003: {allowed_users: [10]}\n", nil)
	f.api.SendText(chatB, alice, "hello from an unknown chat")
	f.api.SendText(1003, 11, "hello from an unknown user")
	f.api.SendText(chatB, alice, "/model")
	f.api.SendText(chatB, alice, "/start")
	q := f.api.PressButton(chatB, alice, 1, "model:reset")
	f.api.SendText(chatA, alice, "hello")
	f.last(chatA, 1) // updates are handled in order: the others are done
	if n := len(f.agent.requests()); n != 1 {
		t.Errorf("%d runs, want only chat A's", n)
	}
	if sent := f.api.Messages(chatB); len(sent) != 0 {
		t.Errorf("the unknown chat got %d messages: %+v", len(sent), sent)
	}
	if sent := f.api.Messages(1003); len(sent) != 0 {
		t.Errorf("the unknown user got %d messages", len(sent))
	}
	answers := f.api.Calls("answerCallbackQuery")
	if len(answers) != 1 || answers[0].Params["callback_query_id"] != q || answers[0].Params["text"] != "not allowed" {
		t.Errorf("callback answers %+v", answers)
	}
}

func TestBusyReplyPolicy(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	f := newFixture(t, allowA+"on_busy: reply\n", func(o *Options) {
		o.Agent.(*fakeAgent).run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return backend.Result{Text: "done " + req.Prompt}, nil
		}
	})
	f.api.SendText(chatA, alice, "first")
	waitRuns(t, f.agent, 1)
	f.api.SendText(chatA, alice, "second")
	contains(t, f.last(chatA, 1), "busy, try again later")
	close(release)
	if got := f.last(chatA, 2); got != "done first" {
		t.Errorf("answer %q", got)
	}
	if n := len(f.agent.requests()); n != 1 {
		t.Errorf("%d runs, want 1: the second message is dropped", n)
	}
}

func TestBusyQueuePolicyRunsInOrder(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	f := newFixture(t, allowA+"queue_limit: 2\n", func(o *Options) {
		o.Agent.(*fakeAgent).run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
			if req.Prompt == "first" {
				select {
				case <-release:
				case <-ctx.Done():
				}
			}
			return backend.Result{Text: "done " + req.Prompt}, nil
		}
	})
	f.api.SendText(chatA, alice, "first")
	waitRuns(t, f.agent, 1)
	f.api.SendText(chatA, alice, "second")
	f.api.SendText(chatA, alice, "third")
	f.api.SendText(chatA, alice, "fourth")
	texts := f.waitTexts(chatA, 3)
	contains(t, texts[0], "queued (1 before it)")
	contains(t, texts[1], "queued (2 before it)")
	contains(t, texts[2], "busy: 2 messages already wait")
	close(release)
	texts = f.waitTexts(chatA, 6)
	if got := strings.Join(texts[3:], "|"); got != "done first|done second|done third" {
		t.Errorf("answers %q", got)
	}
}

func TestCancelStopsTheRunAndEmptiesTheQueue(t *testing.T) {
	t.Parallel()
	stopped := make(chan error, 1)
	f := newFixture(t, allowA, func(o *Options) {
		o.Agent.(*fakeAgent).run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
			<-ctx.Done()
			stopped <- context.Cause(ctx)
			return backend.Result{Text: "late output", Stopped: "cancelled"}, nil
		}
	})
	f.api.SendText(chatA, alice, "/cancel")
	contains(t, f.last(chatA, 1), "nothing running")
	f.api.SendText(chatA, alice, "long task")
	waitRuns(t, f.agent, 1)
	f.api.SendText(chatA, alice, "queued task")
	f.waitTexts(chatA, 2)
	f.api.SendText(chatA, alice, "/cancel")
	contains(t, f.last(chatA, 3), "cancelled; 1 queued messages dropped")
	select {
	case cause := <-stopped:
		if cause != errCancelled {
			t.Errorf("cause %v", cause)
		}
	case <-time.After(testWait):
		t.Fatal("the run was not cancelled")
	}
	waitIdle(t, f.bot, chatA)
	f.api.SendText(chatA, alice, "/status")
	contains(t, f.last(chatA, 4), "all clear")
	if n := len(f.agent.requests()); n != 1 {
		t.Errorf("%d runs: the queued message ran", n)
	}
	for _, s := range f.api.Messages(chatA) {
		if strings.Contains(s.Plain, "late output") {
			t.Error("a cancelled run's output was sent")
		}
	}
}

func waitRuns(t *testing.T, a *fakeAgent, n int) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for len(a.requests()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d runs, want %d", len(a.requests()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitIdle(t *testing.T, b *Bot, chat int64) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for running, _, _ := b.chatStatus(chat); running; running, _, _ = b.chatStatus(chat) {
		if time.Now().After(deadline) {
			t.Fatal("the chat is still running")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRunWaitsForTheWorkspaceLock(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, nil)
	ws, err := f.root.Workspace("chat_1001", true)
	must(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	release, err := f.opts.Locks.Acquire(ctx, ws) // a cron job, say
	must(t, err)
	f.api.SendText(chatA, alice, "hello")
	contains(t, f.last(chatA, 1), "waiting: another run (API, MCP or cron) is using this workspace")
	if n := len(f.agent.requests()); n != 0 {
		t.Errorf("%d runs while the workspace was held", n)
	}
	release()
	if got := f.last(chatA, 2); got != "echo: hello" {
		t.Errorf("answer %q", got)
	}
}
