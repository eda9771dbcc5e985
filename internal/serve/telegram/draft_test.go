package telegram

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// streaming makes the fake agent stream its answer in pieces, each after the
// previous draft was sent, so every piece is seen.
func streaming(f **fixture, pieces ...string) func(*Options) {
	return func(o *Options) {
		o.DraftEvery = 5 * time.Millisecond
		o.Agent.(*fakeAgent).stream = func(ctx context.Context, req backend.Request, emit func(backend.Event)) (backend.Result, error) {
			for i, p := range pieces {
				emit(backend.Event{Kind: backend.EventDelta, Text: p})
				waitFor((*f).t, func() bool { return len((*f).api.Calls("sendMessageDraft")) > i || (*f).failedDrafts() })
			}
			return backend.Result{Text: strings.Join(pieces, ""), Stopped: "exited"}, nil
		}
	}
}

func (f *fixture) failedDrafts() bool {
	for _, c := range f.api.Calls("sendMessageDraft") {
		if c.Status != 200 {
			return true
		}
	}
	return false
}

func TestLongAnswersStreamAsDrafts(t *testing.T) {
	t.Parallel()
	var f *fixture
	f = newFixture(t, allowA, streaming(&f, "The **answer** ", "grows ", "[SEND_FILE: x.txt] slowly."))
	f.api.SendText(chatA, alice, "stream please")
	f.waitTexts(chatA, 2) // the refused file, then the answer
	drafts := f.api.Calls("sendMessageDraft")
	if len(drafts) < 3 {
		t.Fatalf("%d drafts, want one per piece", len(drafts))
	}
	if d := drafts[0].Params; d["text"] != "The <b>answer</b>" || d["parse_mode"] != "HTML" || d["draft_id"] == "" {
		t.Errorf("first draft %v", d)
	}
	if last := drafts[len(drafts)-1].Params["text"]; strings.Contains(last, "SEND_FILE") || !strings.HasSuffix(last, "slowly.") {
		t.Errorf("last draft %q", last)
	}
	if got := f.api.Messages(chatA)[1].Plain; got != "The answer grows  slowly." {
		t.Errorf("final answer %q", got)
	}
}

func TestRefusedDraftsStopForTheRun(t *testing.T) {
	t.Parallel()
	var f *fixture
	f = newFixture(t, allowA, streaming(&f, "one ", "two ", "three"))
	f.api.FailNext("sendMessageDraft", 400, "Bad Request: method is available only in private chats", 0)
	f.api.SendText(chatA, alice, "go")
	if got := f.last(chatA, 1); got != "one two three" {
		t.Errorf("answer %q", got)
	}
	if n := len(f.api.Calls("sendMessageDraft")); n != 1 {
		t.Errorf("%d drafts after a refusal, want the refused one only", n)
	}
}
