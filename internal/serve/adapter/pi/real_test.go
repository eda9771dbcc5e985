package pi_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/pi"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
)

// piModels registers the fake model server as an OpenAI-compatible provider, as
// pi's docs/models.md describes (and bench/cmd/agentbench does); the compat flags
// stop pi from sending the developer role and reasoning_effort.
const piModels = `{"providers": {"fake": {
  "baseUrl": %q, "api": "openai-completions", "apiKey": "fake",
  "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
  "models": [{"id": "fake-model", "reasoning": false, "contextWindow": 131072}]}}}
`

// TestRealPi runs the real pi-coding-agent (pinned in bench/package.json) through
// the pi adapter and the supervisor against the fake model server on 127.0.0.1:
// the answer, the session id and the usage come from pi's own JSON events, and a
// second run continues the same session. It fails, never skips, when Node or pi is
// missing: .ci/run runs `npm ci` in bench.
func TestRealPi(t *testing.T) {
	t.Parallel()
	cli, _ := filepath.Abs("../../../../bench/node_modules/@mariozechner/pi-coding-agent/dist/cli.js")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: the real pi test needs Node 20+")
	}
	if _, err := os.Stat(cli); err != nil {
		t.Fatalf("pi is not installed: run `npm ci` in bench (%v)", err)
	}
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{Text: []string{"Bonjour", " depuis", " le faux modèle."}, Usage: &fakemodel.Usage{PromptTokens: 120, CompletionTokens: 9}},
		{Text: []string{"Toujours", " là."}, Usage: &fakemodel.Usage{PromptTokens: 150, CompletionTokens: 4}},
	}})
	home, work := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".pi", "agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".pi", "agent", "models.json"), fmt.Appendf(nil, piModels, fm.URL()), 0o644); err != nil {
		t.Fatal(err)
	}
	// A fresh HOME and nothing else of ours: PI_OFFLINE turns off pi's start-up
	// network calls (update checks, telemetry), so only 127.0.0.1 is reached.
	opts := runner.Options{Grace: time.Second, TempParent: t.TempDir(), BaseEnv: []string{
		"PATH=" + filepath.Dir(node) + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home, "LANG=C.UTF-8", "PI_OFFLINE=1"}}
	pi := &pi.Adapter{Binary: cli, Getenv: func(string) string { return "" }}
	req := backend.Request{Prompt: "Dis bonjour.", Workspace: work, Model: "fake-model", Continue: true,
		ExtraArgs: []string{"--provider", "fake"}, EventMode: backend.EventsFull,
		// Judgement: pi starts in a second or two; a loaded CI machine under -race
		// may take ten times that.
		Timeout: time.Minute}

	res, evs, err := adaptertest.Run(t, pi, req, opts)
	// Every line read: an event type the adapter does not know would be reported.
	if err != nil || res.ExitCode != 0 || res.OutputError != "" {
		t.Fatalf("pi: %v, exit %d, output error %q\nstderr: %s\nstdout: %.2000s", err, res.ExitCode, res.OutputError, res.Stderr, res.Stdout)
	}
	if res.Text != "Bonjour depuis le faux modèle." || adaptertest.JoinDeltas(evs) != res.Text {
		t.Errorf("text %q, deltas %q", res.Text, adaptertest.JoinDeltas(evs))
	}
	if res.SessionID == "" {
		t.Errorf("no session id in pi's events:\n%.2000s", res.Stdout)
	}
	if res.Usage.InputTokens != 120 || res.Usage.OutputTokens != 9 {
		t.Errorf("usage = %+v, want 120 in, 9 out", res.Usage)
	}
	if st := adaptertest.Stop(t, evs); st.Kind != backend.EventStop {
		t.Errorf("stop event = %+v", st)
	}

	req.Prompt = "Encore ?"
	again, _, err := adaptertest.Run(t, pi, req, opts)
	if err != nil || again.ExitCode != 0 {
		t.Fatalf("pi --continue: %v, exit %d\nstderr: %s", err, again.ExitCode, again.Stderr)
	}
	if again.Text != "Toujours là." || again.SessionID != res.SessionID {
		t.Errorf("continued run: text %q, session %q, want the session %q", again.Text, again.SessionID, res.SessionID)
	}
	reqs := fm.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Body, "Bonjour depuis le faux") {
		t.Errorf("the fake model saw %d requests; the second should carry the first answer", len(reqs))
	}
}
