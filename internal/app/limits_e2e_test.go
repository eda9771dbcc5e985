package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func loopingTurns(n int) []fakemodel.Turn {
	var turns []fakemodel.Turn
	for i := range n {
		turns = append(turns, calls(fakemodel.ToolCall{ID: "c" + string(rune('a'+i)), Name: "glob", Arguments: args(map[string]any{"pattern": "*"})}))
	}
	return turns
}

func TestMaxTurnsStopsAndStillPrintsTheResult(t *testing.T) {
	t.Parallel()
	h := newHarness(t, loopingTurns(5)...)
	r := h.run("-p", "--max-turns", "2", "--output", "json", "loop")
	if r.code != ExitLimit {
		t.Fatalf("exit %d, want %d; stderr %s", r.code, ExitLimit, r.stderr)
	}
	s := h.summary(r)
	if s.StopReason != "max_turns" || s.Turns != 2 || len(h.srv.Requests()) != 2 {
		t.Fatalf("summary %+v after %d requests", s, len(h.srv.Requests()))
	}
}

// pricedConfig gives the fake model a price so --max-price has something to count.
const pricedConfig = `
model = "priced"

[[models]]
name = "priced"
provider = "albert"
wire_name = "fake-priced"
context_window = 100000
input_price = 1000.0
output_price = 1000.0
`

func (h *harness) globalConfig(content string) {
	h.t.Helper()
	dir := filepath.Join(filepath.Dir(filepath.Dir(h.home)), "xdg", "albert-code")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

func TestMaxPriceStops(t *testing.T) {
	t.Parallel()
	h := newHarness(t, loopingTurns(5)...)
	h.globalConfig(pricedConfig)
	// Each call costs (100+10) tokens × 1000 EUR / 1e6 = 0.11 EUR.
	r := h.run("-p", "--max-price", "0.2", "--output", "json", "loop")
	if r.code != ExitLimit {
		t.Fatalf("exit %d, want %d; stdout %s stderr %s", r.code, ExitLimit, r.stdout, r.stderr)
	}
	s := h.summary(r)
	if s.StopReason != "max_price" || s.Turns != 2 || s.Cost < 0.2 || s.Cost > 0.23 {
		t.Fatalf("summary = %+v", s)
	}
	if model := h.srv.Requests()[0].JSON["model"]; model != "fake-priced" {
		t.Fatalf("wire model sent = %v", model)
	}
}

func TestAutoCompactionSummarisesOlderTurns(t *testing.T) {
	t.Parallel()
	big := &fakemodel.Usage{PromptTokens: 90000, CompletionTokens: 10}
	h := newHarness(t,
		fakemodel.Turn{Text: []string{"first answer"}, Usage: big},
		fakemodel.Turn{Text: []string{"SUMMARY: the user asked twice."}, Usage: &fakemodel.Usage{PromptTokens: 500, CompletionTokens: 20}},
		text("second answer"),
	)
	h.globalConfig(pricedConfig + "\n[compaction]\nthreshold = 0.8\n")
	r := h.run("-p", "--output", "json", "first question")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	first := h.summary(r)
	r = h.run("-p", "--continue", "--output", "json", "second question")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if s := h.summary(r); s.SessionID != first.SessionID || s.Text != "second answer" {
		t.Fatalf("continued summary = %+v", s)
	}
	// Request 1 is the summary call; request 2 carries the summary instead of the first exchange.
	summaryReq := h.requestMessages(1)
	if len(summaryReq) != 1 || !strings.Contains(summaryReq[0]["content"].(string), "first question") {
		t.Fatalf("summary request = %v", summaryReq)
	}
	msgs := h.requestMessages(2)
	var contents []string
	for _, m := range msgs[1:] {
		contents = append(contents, m["content"].(string))
	}
	joined := strings.Join(contents, "|")
	if !strings.Contains(joined, "SUMMARY: the user asked twice.") || strings.Contains(joined, "first answer") || !strings.Contains(joined, "second question") {
		t.Fatalf("after compaction the prompt is %q", joined)
	}
	// The log keeps everything.
	show := h.run("sessions", "show", first.SessionID)
	if !strings.Contains(show.stdout, "first answer") || !strings.Contains(show.stdout, "SUMMARY") {
		t.Fatalf("sessions show lost history:\n%s", show.stdout)
	}
}

func TestResumeSendsThePreviousConversation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, text("one"), text("two"), text("three"))
	first := h.summary(h.run("-p", "--output", "json", "remember 42"))
	h.run("-p", "--output", "json", "unrelated new session")
	r := h.run("-p", "--resume", first.SessionID[len(first.SessionID)-8:], "--output", "json", "what number?")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if s := h.summary(r); s.SessionID != first.SessionID || s.Usage.InputTokens != 200 {
		t.Fatalf("resumed summary = %+v (usage must accumulate over the session)", s)
	}
	msgs := h.requestMessages(2)
	if len(msgs) != 4 || msgs[1]["content"] != "remember 42" || msgs[2]["content"] != "one" || msgs[3]["content"] != "what number?" {
		t.Fatalf("resumed request = %v", msgs)
	}
	list := h.run("sessions", "list")
	if list.code != ExitOK || strings.Count(list.stdout, "\n") != 3 || !strings.Contains(list.stdout, "remember 42") {
		t.Fatalf("sessions list:\n%s%s", list.stdout, list.stderr)
	}
	if r := h.run("sessions", "delete", first.SessionID); r.code != ExitOK {
		t.Fatalf("delete: %+v", r)
	}
	if r := h.run("-p", "--resume", first.SessionID, "x"); r.code != ExitUsage || !strings.Contains(r.stderr, "not found") {
		t.Fatalf("resume of a deleted session: %+v", r)
	}
}

func TestTornSessionLineIsSkippedOnResume(t *testing.T) {
	t.Parallel()
	h := newHarness(t, text("one"), text("two"))
	first := h.summary(h.run("-p", "--output", "json", "hello"))
	log := filepath.Join(h.home, "sessions", first.SessionID, "messages.jsonl")
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"role":"user","content":"half a li`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r := h.run("-p", "--continue", "--output", "json", "again")
	if r.code != ExitOK || !strings.Contains(r.stderr, "warning") {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if msgs := h.requestMessages(1); len(msgs) != 4 || msgs[2]["content"] != "one" {
		t.Fatalf("resumed prompt = %v", msgs)
	}
}
