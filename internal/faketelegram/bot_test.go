package faketelegram_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/etalab-ia/albert-code/internal/faketelegram"
)

const token = "123456:TEST-token"

func newBot(t *testing.T, srv *faketelegram.Server, opts ...bot.Option) *bot.Bot {
	t.Helper()
	opts = append([]bot.Option{bot.WithServerURL(srv.URL()), bot.WithSkipGetMe(),
		bot.WithHTTPClient(3*time.Second, &http.Client{Timeout: 5 * time.Second})}, opts...)
	b, err := bot.New(token, opts...)
	if err != nil {
		t.Fatalf("bot.New: %v", err)
	}
	return b
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// A bot polling the fake receives the user's text and its answer is recorded.
func TestBotEchoesThroughLongPolling(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	sendErr := make(chan error, 1)
	b := newBot(t, srv, bot.WithDefaultHandler(func(ctx context.Context, b *bot.Bot, u *models.Update) {
		if u.Message == nil {
			return
		}
		_, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.Message.Chat.ID, Text: "<b>echo</b> " + u.Message.Text,
			ParseMode: models.ParseModeHTML, ReplyParameters: &models.ReplyParameters{MessageID: u.Message.ID}})
		sendErr <- err
	}))
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { b.Start(runCtx); close(done) }()
	t.Cleanup(func() { stop(); <-done })

	userMsg := srv.SendText(42, 42, "hello")
	got, err := srv.WaitMessages(ctx, 42, 1)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-sendErr:
		if err != nil {
			t.Fatalf("SendMessage: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the handler's SendMessage did not return")
	}
	m := got[0]
	if userMsg != 1 || m.MessageID != 2 {
		t.Errorf("message ids: user %d, bot %d; want 1 and 2 (per chat, shared)", userMsg, m.MessageID)
	}
	if m.Plain != "echo hello" || m.ParseMode != "HTML" || m.ReplyTo != userMsg {
		t.Errorf("sent %+v, want plain %q in HTML replying to %d", m, "echo hello", userMsg)
	}
	// The poller confirmed the update: nothing stays queued.
	deadline := time.Now().Add(5 * time.Second)
	for srv.Pending() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := srv.Pending(); n != 0 {
		t.Errorf("%d updates still pending after the bot confirmed them", n)
	}
}

func TestSendMessageJudgesHTMLAndLength(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	b := newBot(t, srv)
	long := make([]byte, 4097)
	for i := range long {
		long[i] = 'a'
	}
	tests := []struct {
		name, text, mode, wantErr string
	}{
		{"plain", "a < b & c", "", ""},
		{"allowed tags", `<b>b</b><strong>s</strong><i>i</i><u>u</u><s>s</s><span class="tg-spoiler">x</span><tg-spoiler>y</tg-spoiler><a href="https://x.org/?a=1&amp;b=2">l</a><code>c</code><pre><code class="language-go">x := 1</code></pre><blockquote expandable>q</blockquote>`, "HTML", ""},
		{"upper-case tags", "<B>x</B>", "HTML", ""},
		{"entities", "&lt;tag&gt; &amp; &quot; &#65; &#x1F600; & alone &nbsp;", "HTML", ""},
		{"unknown tag", "<div>x</div>", "HTML", `Bad Request: can't parse entities: Unsupported start tag "div" at byte offset 0`},
		{"unbalanced", "<b>x", "HTML", `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`},
		{"crossed", "<b><i>x</b></i>", "HTML", `Bad Request: can't parse entities: Unmatched end tag at byte offset 7, expected "</i>", found "</b>"`},
		{"stray end", "x</b>", "HTML", "Bad Request: can't parse entities: Unexpected end tag at byte offset 1"},
		{"raw less-than", "a <b c", "HTML", "Bad Request: can't parse entities: Unclosed start tag at byte offset 2"},
		{"span without spoiler", `<span>x</span>`, "HTML", `Bad Request: can't parse entities: Tag "span" must have class "tg-spoiler" at byte offset 0`},
		{"tag inside code", "<code><b>x</b></code>", "HTML", `Bad Request: can't parse entities: Tag "b" inside "code" at byte offset 6 is not rendered`},
		{"unknown parse mode", "x", "Textile", "Bad Request: unsupported parse_mode"},
		{"too long", string(long), "", "Bad Request: message is too long"},
		{"only markup", "<b> </b>", "HTML", "Bad Request: message text is empty"},
	}
	for _, tc := range tests {
		_, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: 7, Text: tc.text, ParseMode: models.ParseMode(tc.mode)})
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.wantErr != "" && (err == nil || !errors.Is(err, bot.ErrorBadRequest) || err.Error() != "bad request, "+tc.wantErr):
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.wantErr)
		}
	}
	got := srv.Messages(7)
	if len(got) != 4 || got[3].Plain != `<tag> & " A 😀 & alone &nbsp;` {
		t.Fatalf("accepted messages %+v", got)
	}
}

// 4096 counts UTF-16 units after parsing: markup is free, an emoji costs two.
func TestSendMessageLimitCountsVisibleUTF16(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	b := newBot(t, srv)
	emoji := ""
	for range 2048 {
		emoji += "😀"
	}
	if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: 1, Text: "<b>" + emoji + "</b>", ParseMode: models.ParseModeHTML}); err != nil {
		t.Errorf("4096 units of emoji in bold refused: %v", err)
	}
	if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: 1, Text: emoji + "a"}); err == nil {
		t.Errorf("4097 units accepted")
	}
}
