// Package clitest prepares the real CLI agents serve's tests drive (pinned in
// internal/serve/adapter/testdata/clis, installed by .ci/run) against a fake
// model on 127.0.0.1. Only tests import it, as net/http/httptest.
package clitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// codexConfig declares the fake model server as Codex's provider, on the
// Responses wire (Codex speaks nothing else). No retries: a scripted failure must
// reach the adapter, not be retried into the next turn.
const codexConfig = `model = "fake-model"
model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = %q
env_key = "FAKE_MODEL_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`

// Codex is the real Codex CLI's binary and an environment in which the fake
// model at modelURL is its only provider, with a HOME and CODEX_HOME of its own
// (returned as home). It fails, never skips, when Node or Codex is missing.
func Codex(t testing.TB, modelURL string) (bin string, env []string, home string) {
	t.Helper()
	bin = filepath.Join(clisDir(), "node_modules", ".bin", "codex")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: the real codex test needs Node 16+ to start codex")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("codex is not installed: run `npm ci --prefix internal/serve/adapter/testdata/clis` (%v)", err)
	}
	home = t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), fmt.Appendf(nil, codexConfig, modelURL), 0o600); err != nil {
		t.Fatal(err)
	}
	env = []string{"PATH=" + filepath.Dir(node) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "CODEX_HOME=" + home, "FAKE_MODEL_KEY=fake", "LANG=C.UTF-8"}
	return bin, env, home
}

// clisDir is testdata/clis beside this package, wherever the test runs from.
func clisDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "clis")
}
