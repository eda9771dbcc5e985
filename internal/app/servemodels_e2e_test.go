package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serveModelsEnv is a serve that would start but for its model names.
func serveModelsEnv(t *testing.T, h *harness, extra ...string) []string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(h.work, "root", "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	return append([]string{"ALBERT_CODE_WORKSPACE=" + filepath.Join(h.work, "root"),
		"ALBERT_CODE_RUN_STORE=" + filepath.Join(h.home, "runs.db")}, extra...)
}

func TestServeRefusesToStartWithAModelNoOneServes(t *testing.T) {
	h := albertListing(t)
	file := h.writeFile("cron.yml", `jobs:
  - name: listed
    schedule: "0 9 * * *"
    instruction: x
    workspace: proj
    model: gpt-oss
  - name: typo
    schedule: "0 9 * * *"
    instruction: x
    workspace: proj
    model: gpt-17
`)
	r := cronRun(t, h, serveModelsEnv(t, h, "ALBERT_CODE_CRON_MODE=1", "ALBERT_CODE_CRON_MODE_FILE="+file), "serve")
	if r.code != ExitUsage {
		t.Fatalf("exit %d, want %d\n%s", r.code, ExitUsage, r.stderr)
	}
	for _, want := range []string{"cron.yml:7 (job typo)", `unknown model "gpt-17"`, "the albert server serves openai/gpt-oss-120b (gpt-oss)"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "job listed") {
		t.Errorf("the job naming a model the server lists was refused:\n%s", r.stderr)
	}
	if chats, _ := h.chatModels(); len(chats) != 0 {
		t.Errorf("%d chat requests before serve even started", len(chats))
	}
}

func TestServeChecksAvailableModelsAtStart(t *testing.T) {
	h := albertListing(t)
	r := cronRun(t, h, serveModelsEnv(t, h, "ALBERT_CODE_API_MODE=1", "ALBERT_CODE_API_MODE_HOST=127.0.0.1",
		"ALBERT_CODE_API_MODE_PORT=1", "ALBERT_CODE_AVAILABLE_MODELS=qwen,openweight-code,albert-huge"), "serve")
	if r.code != ExitUsage || !strings.Contains(r.stderr, `ALBERT_CODE_AVAILABLE_MODELS: unknown model "albert-huge"`) {
		t.Fatalf("exit %d, want %d naming the bad entry of ALBERT_CODE_AVAILABLE_MODELS\n%s", r.code, ExitUsage, r.stderr)
	}
	if strings.Contains(r.stderr, `"openweight-code"`) || strings.Contains(r.stderr, `"qwen"`) {
		t.Errorf("a configured or listed model was refused:\n%s", r.stderr)
	}
}
