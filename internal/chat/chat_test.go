package chat

import (
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/profile"
)

func TestSecondPromptIsRefusedWhileOneRunsAndCancelStopsTheFirst(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"thinking"}, Hang: true}}})
	s := open(t, testEnv(t, srv, nil), Options{})
	done := make(chan agent.Result, 1)
	go func() { done <- s.Prompt(testCtx(t), "long job", func(agent.Event) {}) }()
	waitFor(t, "the first request", func() bool { return len(srv.Requests()) == 1 })

	emitted := 0
	res := s.Prompt(testCtx(t), "another", func(agent.Event) { emitted++ })
	if !errors.Is(res.Err, agent.ErrBusy) {
		t.Fatalf("second prompt: err %v, want agent.ErrBusy", res.Err)
	}
	if emitted != 0 {
		t.Errorf("the refused prompt emitted %d events", emitted)
	}
	if err := s.SetProfile(profile.Plan); !errors.Is(err, agent.ErrBusy) {
		t.Errorf("switching profile mid-prompt: err %v, want agent.ErrBusy", err)
	}
	s.Cancel()
	if res := <-done; res.Stop != agent.StopCancelled {
		t.Fatalf("cancelled prompt: stop %q, err %v", res.Stop, res.Err)
	}
	if s.Busy() {
		t.Error("still busy after the cancelled prompt ended")
	}
	s.Cancel() // nothing runs: a no-op
}

func TestProfileSwitchKeepsTheHistoryAndChangesTheTools(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"first answer"}}, {Text: []string{"second"}}}})
	s := open(t, testEnv(t, srv, nil), Options{})
	id := s.ID()
	mustPrompt(t, s, "first question")
	if err := s.SetProfile(profile.Plan); err != nil {
		t.Fatal(err)
	}
	if s.Profile() != profile.Plan || s.ID() != id {
		t.Fatalf("after the switch: profile %q, id %q; want plan on %q", s.Profile(), s.ID(), id)
	}
	mustPrompt(t, s, "second question")
	reqs := srv.Requests()
	before, after := decode(t, reqs[0]), decode(t, reqs[1])
	if !before.hasTool("write") || after.hasTool("write") {
		t.Errorf("write offered before/after the switch to plan: %v/%v, want true/false", before.hasTool("write"), after.hasTool("write"))
	}
	got := after.contents()
	if len(got) != 3 || got[0] != "first question" || got[1] != "first answer" ||
		!strings.HasPrefix(got[2], "second question") || !strings.Contains(got[2], "plan mode") {
		t.Errorf("the request after the switch: %q; want the first exchange, then the second question with the plan reminder", got)
	}
}

func TestNextProfileCyclesInShiftTabOrder(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{})
	s := open(t, testEnv(t, srv, nil), Options{})
	got, err := s.NextProfile()
	if err != nil || got != profile.Plan || s.Profile() != profile.Plan {
		t.Fatalf("NextProfile from default = %q, %v (now %q), want plan", got, err, s.Profile())
	}
	ps, err := s.Profiles()
	if err != nil || len(ps) < 4 || ps[0].Name != profile.Default {
		t.Fatalf("Profiles() = %d profiles, %v; want default first among at least four", len(ps), err)
	}
	if err := s.SetProfile(profile.Explore); err == nil {
		t.Error("switching to the explore sub-agent profile was accepted")
	}
	if err := s.SetProfile("nope"); err == nil || s.Profile() != profile.Plan {
		t.Errorf("unknown profile: err %v, profile now %q", err, s.Profile())
	}
}

func TestModelSwitchKeepsTheHistory(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"one"}}, {Text: []string{"two"}}}})
	s := open(t, testEnv(t, srv, nil), Options{})
	mustPrompt(t, s, "hello")
	if err := s.SetModel("qwen"); err != nil {
		t.Fatal(err)
	}
	if s.Model() != "qwen" || s.Stats().ContextWindow != 262144 {
		t.Fatalf("model %q window %d after the switch, want qwen 262144", s.Model(), s.Stats().ContextWindow)
	}
	mustPrompt(t, s, "again")
	r := decode(t, srv.Requests()[1])
	if r.Model != "Qwen/Qwen3.6-27B" || !slices.Contains(r.contents(), "one") {
		t.Fatalf("request after the switch: model %q, messages %q", r.Model, r.contents())
	}
	if err := s.SetModel("no-such-model"); err == nil || s.Model() != "qwen" {
		t.Errorf("unknown model: err %v, model now %q", err, s.Model())
	}
	if len(s.Models()) < 2 {
		t.Errorf("Models() = %d entries", len(s.Models()))
	}
}

func TestSwitchCarriesTheHistoryWhenSessionsAreDisabled(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"remember me"}}, {Text: []string{"ok"}}}})
	s := open(t, testEnv(t, srv, map[string]string{"ALBERT_CODE_SESSION_ENABLED": "false"}), Options{})
	if s.ID() != "" {
		t.Fatalf("session id %q with sessions disabled", s.ID())
	}
	mustPrompt(t, s, "hello")
	if err := s.SetProfile(profile.AcceptEdits); err != nil {
		t.Fatal(err)
	}
	mustPrompt(t, s, "again")
	if got := decode(t, srv.Requests()[1]).contents(); !slices.Contains(got, "remember me") {
		t.Fatalf("history lost across the switch: %q", got)
	}
}

func TestClearStartsAnEmptySessionWithTheSameSettings(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"one"}}, {Text: []string{"two"}}}})
	s := open(t, testEnv(t, srv, nil), Options{})
	if err := s.SetProfile(profile.Plan); err != nil {
		t.Fatal(err)
	}
	mustPrompt(t, s, "old question")
	old := s.ID()
	if s.Title() != "old question" {
		t.Errorf("Title() = %q", s.Title())
	}
	if err := s.Clear(); err != nil {
		t.Fatal(err)
	}
	if s.ID() == old || len(s.History()) != 0 || s.Profile() != profile.Plan || s.Title() != "" {
		t.Fatalf("after Clear: id %q (old %q), %d messages, profile %q", s.ID(), old, len(s.History()), s.Profile())
	}
	mustPrompt(t, s, "new question")
	if got := decode(t, srv.Requests()[1]).contents(); slices.Contains(got, "old question") {
		t.Fatalf("the cleared history reached the model: %q", got)
	}
	list, err := s.ListSessions()
	if err != nil || len(list) != 2 {
		t.Fatalf("ListSessions() = %d sessions, %v; want the old and the new", len(list), err)
	}
}

func TestResumeAndContinueReopenTheConversation(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"stored answer"}}}})
	env := testEnv(t, srv, nil)
	first, err := Open(env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustPrompt(t, first, "stored question")
	id := first.ID()
	first.Close()
	first.Close() // idempotent

	for _, o := range []Options{{Resume: id}, {Continue: true}} {
		s := open(t, env, o)
		h := s.History()
		if s.ID() != id || len(h) != 2 || h[0].Content != "stored question" || h[1].Content != "stored answer" {
			t.Fatalf("%+v: id %q, history %+v", o, s.ID(), h)
		}
		s.Close()
	}
	if _, err := Open(env, Options{Resume: "does-not-exist"}); err == nil {
		t.Error("resuming an unknown session succeeded")
	}
	closed := open(t, env, Options{})
	closed.Close()
	if res := closed.Prompt(testCtx(t), "x", func(agent.Event) {}); !errors.Is(res.Err, ErrClosed) {
		t.Errorf("prompt after Close: %v, want ErrClosed", res.Err)
	}
}

func TestCloseWaitsForTheRunningPrompt(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{{Hang: true}}})
	s := open(t, testEnv(t, srv, nil), Options{})
	done := make(chan agent.Result, 1)
	var ended atomic.Bool
	go func() {
		done <- s.Prompt(testCtx(t), "hang", func(ev agent.Event) {
			if ev.Kind == agent.EventTurnEnd {
				ended.Store(true)
			}
		})
	}()
	waitFor(t, "the request", func() bool { return len(srv.Requests()) == 1 })
	s.Close()
	if !ended.Load() {
		t.Fatal("Close returned before the running prompt ended")
	}
	if res := <-done; res.Stop != agent.StopCancelled {
		t.Fatalf("stop %q", res.Stop)
	}
}

func TestCompactRunsAndIsRefusedWhileBusy(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{Text: []string{"a1"}}, {Text: []string{"a2"}}, {Text: []string{"a3"}}, {Text: []string{"summary"}},
	}})
	s := open(t, testEnv(t, srv, nil), Options{})
	for _, q := range []string{"q1", "q2", "q3"} {
		mustPrompt(t, s, q)
	}
	var kinds []agent.EventKind
	if err := s.Compact(testCtx(t), "keep q3", func(ev agent.Event) { kinds = append(kinds, ev.Kind) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(kinds, agent.EventCompactionEnd) {
		t.Fatalf("compaction events %v", kinds)
	}
}
