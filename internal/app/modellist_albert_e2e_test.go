package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
)

// TestAlbertAliasRunsWithoutAModelsEntry is a user of the original who types an
// alias Albert serves and our configuration does not know: the run goes through
// with the canonical id on the wire, against the fake Albert.
func TestAlbertAliasRunsWithoutAModelsEntry(t *testing.T) {
	var mu sync.Mutex
	var sent []string
	srv, err := fakealbert.Start(fakealbert.Options{APIKey: "test-key",
		Models: []fakealbert.Model{{ID: "openai/gpt-oss-120b", Aliases: []string{"gpt-oss"}, MaxContextLength: 131072}},
		Responder: func(r fakealbert.ChatRequest) fakealbert.Answer {
			mu.Lock()
			defer mu.Unlock()
			sent = append(sent, r.Model)
			return fakealbert.Answer{Text: "served by albert"}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	root := t.TempDir()
	home := filepath.Join(root, "home")
	cfg := filepath.Join(root, "xdg", "albert-code", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("[[providers]]\nname = \"albert\"\nbase_url = \""+srv.URL()+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{"-p", "--model", "gpt-oss", "hi"}
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir, cmd.Stdin = root, strings.NewReader("")
	cmd.Env = append([]string{"HOME=" + home, "ALBERT_CODE_HOME=" + filepath.Join(home, ".albert-code"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "ALBERT_API_KEY=test-key", "PATH=" + os.Getenv("PATH")}, goEnv...)
	r := runToEnd(t, ctx, cmd, args)
	if r.code != 0 || !strings.Contains(r.stdout, "served by albert") {
		t.Fatalf("code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != 1 || sent[0] != "openai/gpt-oss-120b" {
		t.Fatalf("Albert received model %v, want the canonical openai/gpt-oss-120b for the alias", sent)
	}
}
