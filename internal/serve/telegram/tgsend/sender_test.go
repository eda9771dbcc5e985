package tgsend_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot"

	"github.com/etalab-ia/albert-code/internal/faketelegram"
	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgmd"
	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgsend"
)

const token = "4242:sender-test"

// sleeps records the waits a Sender asks for and returns at once.
type sleeps struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.waits)
}

type fixture struct {
	srv    *faketelegram.Server
	sender *tgsend.Sender
	sleeps *sleeps
	ctx    context.Context
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	srv := faketelegram.Start(t, token)
	b, err := bot.New(token, bot.WithServerURL(srv.URL()), bot.WithSkipGetMe(),
		bot.WithHTTPClient(time.Second, &http.Client{Timeout: 10 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	sl := &sleeps{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return &fixture{srv: srv, sender: tgsend.New(b, tgsend.Options{Sleep: sl.sleep}), sleeps: sl, ctx: ctx}
}

func ids(sent []faketelegram.Sent) []int64 {
	var out []int64
	for _, m := range sent {
		out = append(out, m.MessageID)
	}
	return out
}

// A long answer arrives whole, in order, as several messages whose ids are
// all returned; only the first replies to the question.
func TestSendMarkdownSplitsALongAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	question := f.srv.SendText(10, 10, "report please")
	var md strings.Builder
	for i := range 600 {
		fmt.Fprintf(&md, "line %04d of the **answer** with `code` and <angle> & ampersand\n\n", i)
	}
	got, err := f.sender.SendMarkdown(f.ctx, 10, question, md.String())
	if err != nil {
		t.Fatal(err)
	}
	sent := f.srv.Messages(10)
	if len(sent) < 8 || !slices.Equal(got, ids(sent)) {
		t.Fatalf("returned ids %v, the chat has %v (want every message, at least 8 for 40 kB)", got, ids(sent))
	}
	if len(sent) != len(tgmd.Split(md.String(), tgmd.Limit)) {
		t.Errorf("%d messages for %d rendered parts", len(sent), len(tgmd.Split(md.String(), tgmd.Limit)))
	}
	var all strings.Builder
	for i, m := range sent {
		if m.ParseMode != "HTML" {
			t.Errorf("message %d sent as %q, want HTML", i, m.ParseMode)
		}
		if (i == 0) != (m.ReplyTo == question) {
			t.Errorf("message %d replies to %d", i, m.ReplyTo)
		}
		all.WriteString(m.Plain)
	}
	next := 0
	text := all.String()
	for i := range 600 {
		at := strings.Index(text[next:], fmt.Sprintf("line %04d", i))
		if at < 0 {
			t.Fatalf("line %04d missing or out of order", i)
		}
		next += at
	}
	if !strings.Contains(text, "<angle> & ampersand") {
		t.Errorf("escaped characters lost: %q", text[:200])
	}
}

func TestSendMarkdownFallsBackToPlainWhenHTMLIsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.srv.FailNext("sendMessage", 400, "Bad Request: can't parse entities: Unsupported start tag \"x\" at byte offset 0", 0)
	got, err := f.sender.SendMarkdown(f.ctx, 11, 0, "**bold** answer")
	if err != nil {
		t.Fatal(err)
	}
	sent := f.srv.Messages(11)
	want := tgmd.Split("**bold** answer", tgmd.Limit)[0].Plain
	if len(sent) != 1 || !slices.Equal(got, ids(sent)) || sent[0].ParseMode != "" || sent[0].Text != want {
		t.Fatalf("sent %+v (ids %v), want one plain message %q", sent, got, want)
	}
}

// A renderer's slip past 4096 still delivers every character, cut as plain.
func TestSendMarkdownCutsAPlainFallbackThatIsTooLong(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.srv.FailNext("sendMessage", 400, "Bad Request: message is too long", 0)
	got, err := f.sender.SendMarkdown(f.ctx, 12, 0, "short answer")
	if err != nil || len(got) != 1 || f.srv.Messages(12)[0].Text != tgmd.Split("short answer", 0)[0].Plain {
		t.Fatalf("ids %v, err %v, sent %+v", got, err, f.srv.Messages(12))
	}
}

func TestSendMarkdownWaitsRetryAfterOn429(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.srv.FailNext("sendMessage", 429, "", 3)
	f.srv.FailNext("sendMessage", 429, "", 1)
	got, err := f.sender.SendMarkdown(f.ctx, 13, 0, "hello")
	if err != nil || len(got) != 1 {
		t.Fatalf("ids %v, err %v", got, err)
	}
	if w := f.sleeps.got(); !slices.Equal(w, []time.Duration{3 * time.Second, time.Second}) {
		t.Errorf("waits %v, want the two retry_after: 3s, 1s", w)
	}
	if n := len(f.srv.Calls("sendMessage")); n != 3 {
		t.Errorf("%d sendMessage calls, want 3", n)
	}
}

// A 429 wait is bounded by the context: a wait the context ends gives up.
func TestSendMarkdown429WaitEndsWithTheContext(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.srv.FailNext("sendMessage", 429, "", 30)
	ctx, cancel := context.WithCancel(f.ctx)
	var asked time.Duration
	b, _ := bot.New(token, bot.WithServerURL(f.srv.URL()), bot.WithSkipGetMe())
	s := tgsend.New(b, tgsend.Options{Sleep: func(ctx context.Context, d time.Duration) error {
		asked = d
		cancel() // the shutdown comes during the wait
		return ctx.Err()
	}})
	_, err := s.SendMarkdown(ctx, 14, 0, "hello")
	if err == nil || !errors.Is(err, context.Canceled) || asked != 30*time.Second {
		t.Fatalf("err %v after asking to wait %v", err, asked)
	}
	if len(f.srv.Messages(14)) != 0 || len(f.srv.Calls("sendMessage")) != 1 {
		t.Error("sent again after the context ended")
	}
}

func TestSendMarkdownRetries502ThenGivesUp(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for range 2 {
		f.srv.FailNext("sendMessage", 502, "", 0)
	}
	if got, err := f.sender.SendMarkdown(f.ctx, 15, 0, "first"); err != nil || len(got) != 1 {
		t.Fatalf("after two 502: ids %v, err %v", got, err)
	}
	for range 4 {
		f.srv.FailNext("sendMessage", 502, "", 0)
	}
	_, err := f.sender.SendMarkdown(f.ctx, 15, 0, "second")
	if err == nil || !strings.Contains(err.Error(), "gave up after 3 retries") {
		t.Fatalf("after four 502: %v", err)
	}
	if w := f.sleeps.got(); !slices.Equal(w, []time.Duration{time.Second, 2 * time.Second, time.Second, 2 * time.Second, 4 * time.Second}) {
		t.Errorf("backoff waits %v", w)
	}
	if n := len(f.srv.Messages(15)); n != 1 {
		t.Errorf("%d messages, want only the first", n)
	}
}

// A 403 (the user blocked the bot) is not retried.
func TestSendMarkdownDoesNotRetryForbidden(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.srv.FailNext("sendMessage", 403, "Forbidden: bot was blocked by the user", 0)
	_, err := f.sender.SendMarkdown(f.ctx, 16, 0, "x")
	if err == nil || !strings.Contains(err.Error(), "blocked") || len(f.srv.Calls("sendMessage")) != 1 {
		t.Fatalf("err %v after %d calls", err, len(f.srv.Calls("sendMessage")))
	}
}

func TestTypingRenewsUntilTheContextEnds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx, cancel := context.WithCancel(f.ctx)
	var mu sync.Mutex
	n := 0
	b, _ := bot.New(token, bot.WithServerURL(f.srv.URL()), bot.WithSkipGetMe())
	s := tgsend.New(b, tgsend.Options{Sleep: func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		defer mu.Unlock()
		if d != tgsend.TypingEvery {
			t.Errorf("typing waits %v", d)
		}
		if n++; n == 3 {
			cancel()
		}
		return ctx.Err()
	}})
	s.Typing(ctx, 17)
	calls := f.srv.Calls("sendChatAction")
	if len(calls) != 3 || calls[0].Params["action"] != "typing" || calls[0].Params["chat_id"] != "17" {
		t.Fatalf("%d sendChatAction calls: %+v", len(calls), calls)
	}
}

func TestSendPlainSendsTheTextAsWritten(t *testing.T) {
	f := newFixture(t)
	notice := "model: gpt_oss **not bold** <b>not a tag</b> & more\n"
	text := notice + strings.Repeat("😀", 3000) // 6,000 UTF-16 units: two messages
	ids, err := f.sender.SendPlain(f.ctx, 5, text)
	if err != nil {
		t.Fatal(err)
	}
	got := f.srv.Messages(5)
	if len(ids) != 2 || len(got) != 2 {
		t.Fatalf("ids %v, %d messages, want 2", ids, len(got))
	}
	if got[0].ParseMode != "" || !strings.HasPrefix(got[0].Plain, notice) {
		t.Errorf("first message: parse mode %q, text %q", got[0].ParseMode, got[0].Plain[:80])
	}
	if got[0].Plain+got[1].Plain != text {
		t.Error("the two messages do not make the text")
	}
}
