package api

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/clitest"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/codex"
)

// realCodexSetup serves the real Codex CLI (pinned in ../adapter/testdata/clis,
// installed by .ci/run) against a fake model speaking the Responses API. It
// fails, never skips, when Node or Codex is missing.
func realCodexSetup(t *testing.T, turns ...fakemodel.Turn) (setup, *fakemodel.Server) {
	t.Helper()
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: turns})
	bin, env, _ := clitest.Codex(t, fm.URL())
	return setup{
		backend: &codex.Adapter{Binary: bin},
		baseEnv: env,
	}, fm
}

// TestRunRealCodexNoToolsContinues: /run's default is to continue the workspace's
// thread, so a plain {"noTools": true} resumes it; codex exec resume has no
// --sandbox flag, and passing one made it exit 2 (a 500). Both runs answer, the
// second in the first's thread (the full answer gives the session).
func TestRunRealCodexNoToolsContinues(t *testing.T) {
	t.Parallel()
	s, fm := realCodexSetup(t, fakemodel.Turn{Text: []string{"un"}}, fakemodel.Turn{Text: []string{"deux"}})
	h := newHarness(t, s)
	var first, second runResponse
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "Commence.", "workspace": "proj", "noTools": true, "eventMode": "full"}, &first)
	wantStatus(t, resp, body, http.StatusOK)
	resp, body = h.do("POST", "/run", map[string]any{"prompt": "Continue.", "workspace": "proj", "noTools": true, "eventMode": "full"}, &second)
	wantStatus(t, resp, body, http.StatusOK)
	if first.Text != "un" || second.Text != "deux" || first.SessionID == "" || second.SessionID != first.SessionID {
		t.Errorf("answers %q then %q in threads %q then %q: want the second in the first's thread", first.Text, second.Text, first.SessionID, second.SessionID)
	}
	if reqs := fm.Requests(); len(reqs) != 2 || !strings.Contains(reqs[1].Body, "Commence.") {
		t.Errorf("the second run did not continue the thread (%d model requests)", len(reqs))
	}
}

// TestRunRealCodexSchemaRetryAfterAFreshAttempt: with noContinue a schema run's
// first attempt is ephemeral; its corrective retry restates the task in a new
// thread. Before, it resumed the ephemeral thread and codex answered "no rollout
// found for thread id" (a 500).
func TestRunRealCodexSchemaRetryAfterAFreshAttempt(t *testing.T) {
	t.Parallel()
	s, fm := realCodexSetup(t, fakemodel.Turn{Text: []string{`{"count": "trois"}`}}, fakemodel.Turn{Text: []string{`{"count": 3}`}})
	h := newHarness(t, s)
	var out runResponse
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "Combien de fichiers ?", "noContinue": true,
		"jsonSchema": map[string]any{"type": "object", "properties": map[string]any{"count": map[string]any{"type": "integer"}}, "required": []string{"count"}}}, &out)
	wantStatus(t, resp, body, http.StatusOK)
	if string(out.JSON) != `{"count":3}` || out.JSONRetries != 1 {
		t.Errorf("json %s after %d retries: %s", out.JSON, out.JSONRetries, body)
	}
	if reqs := fm.Requests(); len(reqs) != 2 || !strings.Contains(reqs[1].Body, "Combien de fichiers ?") {
		t.Errorf("the retry did not restate the task (%d model requests)", len(reqs))
	}
}

// TestDeleteRealCodexRunInsideATool: DELETE /run/{id} on a codex run whose command
// is running (in a session of its own, under a PTY, ignoring SIGHUP and SIGTERM as a
// nohup server does) answers once the command is gone too; before the guardian it
// outlived the run.
func TestDeleteRealCodexRunInsideATool(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "tool.pid")
	s, _ := realCodexSetup(t,
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{Name: "exec_command",
			Arguments: fmt.Sprintf(`{"cmd":"trap '' HUP TERM; echo $$ > %s; exec sleep 300","yield_time_ms":300000}`, pidFile)}}},
		fakemodel.Turn{Hang: true}) // codex may report a long command to the model while it runs
	h := newHarness(t, s)
	done := make(chan *httpResponse, 1)
	go func() { done <- h.post(t.Context(), `{"prompt":"Dors.","noContinue":true}`) }()
	id := h.activeID("running")
	pid := 0
	waitFor(t, "the tool's pid", func() bool {
		data, err := os.ReadFile(pidFile)
		if err == nil && strings.HasSuffix(string(data), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		}
		return pid != 0
	})
	var c cancelAnswer
	resp, body := h.do("DELETE", "/run/"+id, nil, &c)
	wantStatus(t, resp, body, http.StatusOK)
	if alive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("codex's command (pid %d, sleep 300) outlived the cancel", pid)
	}
	if sync := <-done; sync.err != nil || sync.resp.StatusCode != http.StatusConflict {
		t.Errorf("the sync caller's answer: %v %+v", sync.err, sync.resp)
	}
}
