package telegram

import (
	"slices"
	"testing"
	"time"
)

func TestPollingSurvivesBotAPIErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, nil)
	f.api.SendText(chatA, alice, "warm up")
	f.last(chatA, 1)
	waitIdle(t, f.bot, chatA)
	// The next polls fail; the bot keeps polling and gets the message.
	f.api.FailNext("getUpdates", 502, "", 0)
	f.api.FailNext("getUpdates", 429, "", 1)
	f.api.FailNext("getUpdates", 500, "Internal Server Error", 0)
	f.api.SendText(chatA, alice, "still there?")
	if got := f.last(chatA, 2); got != "echo: still there?" {
		t.Errorf("answer %q", got)
	}
}

func TestAnswersRideOut429And502(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, nil)
	f.api.FailNext("sendMessage", 429, "", 7)
	f.api.FailNext("sendMessage", 502, "", 0)
	f.api.SendText(chatA, alice, "hello")
	if got := f.last(chatA, 1); got != "echo: hello" {
		t.Errorf("answer %q", got)
	}
	f.mu.Lock()
	sleeps := slices.Clone(f.sleeps)
	f.mu.Unlock()
	if !slices.Contains(sleeps, 7*time.Second) {
		t.Errorf("the sender waited %v, want the 429's retry_after of 7s among them", sleeps)
	}
	if n := len(f.api.Calls("sendMessage")); n != 3 {
		t.Errorf("%d sendMessage calls, want 3 (429, 502, then sent)", n)
	}
}
