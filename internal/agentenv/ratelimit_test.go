package agentenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
	"github.com/etalab-ia/albert-code/internal/llm"
)

// rateEnv loads an Env whose config puts model "primary" on the fake Albert a and
// its fallback "backup" on another provider served by b.
func rateEnv(t *testing.T, a, b *fakealbert.Server, extra map[string]string) *Env {
	t.Helper()
	root := t.TempDir()
	cfg := `model = "primary"
[[providers]]
name = "albert"
base_url = "` + a.URL() + `"
[[providers]]
name = "other"
kind = "openai-compatible"
base_url = "` + b.URL() + `"
api_key_env = "OTHER_KEY"
[[models]]
name = "primary"
provider = "albert"
wire_name = "m/a"
fallback_model = "backup"
[[models]]
name = "backup"
provider = "other"
wire_name = "m/b"
[rate_limits.models.primary]
rpm = 600
tpd = 1000000
`
	path := filepath.Join(root, "xdg", "albert-code", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": filepath.Join(root, "home"), "ALBERT_CODE_HOME": filepath.Join(root, "home", ".albert-code"),
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "ALBERT_API_KEY": "k", "OTHER_KEY": "k"}
	for k, v := range extra {
		env[k] = v
	}
	e, err := Load(Options{WorkDir: root, LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func startAlbert(t *testing.T, ids ...string) *fakealbert.Server {
	t.Helper()
	var models []fakealbert.Model
	for _, id := range ids {
		models = append(models, fakealbert.Model{ID: id})
	}
	s, err := fakealbert.Start(fakealbert.Options{Models: models})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func stream(t *testing.T, p llm.Provider) (*llm.Response, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var notices []string
	resp, err := p.Stream(ctx, llm.Request{Model: "m/a", Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, func(ev llm.StreamEvent) {
		if ev.Kind == llm.EventModelSwitch {
			notices = append(notices, ev.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp, notices
}

func TestFallbackOnAnotherProviderAnswersTheSameCall(t *testing.T) {
	a, b := startAlbert(t, "m/a"), startAlbert(t, "m/b")
	body := `{"detail": "600 requests for m/a per minute exceeded."}`
	a.Inject(fakealbert.Canned{Status: 429, Body: body}, fakealbert.Canned{Status: 429, Body: body})
	e := rateEnv(t, a, b, nil)
	_, p, err := e.ModelFor()
	if err != nil {
		t.Fatal(err)
	}
	prov, err := e.NewProvider(p)
	if err != nil {
		t.Fatal(err)
	}
	resp, notices := stream(t, prov)
	if resp.Message.Model != "m/b" || len(notices) != 1 || !strings.Contains(notices[0], "m/a continues on m/b") {
		t.Fatalf("answered by %q with notices %q, want m/b and one switch notice", resp.Message.Model, notices)
	}
	if b.Stats().Served != 1 {
		t.Fatalf("other provider served %d calls", b.Stats().Served)
	}
	rpm, err := e.RPMText()
	if err != nil || !strings.Contains(rpm, "Model m/a") || !strings.Contains(rpm, "Requests: 0/600") || !strings.Contains(rpm, "Fallback:") {
		t.Fatalf("RPMText = %q, %v; want m/a's window, empty (the two refused calls are not counted) and the fallback", rpm, err)
	}
}

func TestRateLimitsOffLeavesNoStateBehind(t *testing.T) {
	a := startAlbert(t, "m/a")
	e := rateEnv(t, a, a, map[string]string{"ALBERT_CODE_RATE_LIMITS": "false"})
	_, p, _ := e.ModelFor()
	prov, err := e.NewProvider(p)
	if err != nil {
		t.Fatal(err)
	}
	stream(t, prov)
	if _, err := os.Stat(filepath.Join(e.Config.Home, "ratelimit_state.json")); !os.IsNotExist(err) {
		t.Fatalf("state file written with the layer off (%v)", err)
	}
	on := rateEnv(t, a, a, nil)
	prov, _ = on.NewProvider(p)
	stream(t, prov)
	if _, err := os.Stat(filepath.Join(on.Config.Home, "ratelimit_state.json")); err != nil {
		t.Fatalf("state file missing with the layer on: %v", err)
	}
}

func TestQuotaWarningsReportACorruptThrottleState(t *testing.T) {
	a := startAlbert(t, "m/a")
	e := rateEnv(t, a, a, nil)
	if err := os.MkdirAll(e.Config.Home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.Config.Home, "throttle_state.json"), []byte("\x00garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := strings.Join(e.QuotaWarnings(context.Background()), "\n")
	if !strings.Contains(w, "warning: ") || !strings.Contains(w, "throttle_state.json") || !strings.Contains(w, "rebuilt") {
		t.Fatalf("warnings = %q, want the corrupt file named as rebuilt", w)
	}
	if data, err := os.ReadFile(filepath.Join(e.Config.Home, "throttle_state.json")); err == nil {
		t.Fatalf("throttle_state.json still holds %q", data)
	}
}
