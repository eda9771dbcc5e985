package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
)

// albertUser is one isolated user of a fake Albert: a home, a config naming two
// models on it (primary falls back on backup), and a workspace.
type albertUser struct {
	t      *testing.T
	home   string
	work   string
	config string // the global config.toml
	srv    *fakealbert.Server
	env    []string
}

func newAlbertUser(t *testing.T, primary fakealbert.Limits, extraConfig string) *albertUser {
	t.Helper()
	srv, err := fakealbert.Start(fakealbert.Options{APIKey: "test-key", User: fakealbert.User{ID: 7, Name: "Ada", Email: "ada@example.fr"},
		Models: []fakealbert.Model{
			{ID: "test/model-a", Aliases: []string{"alias-a"}, Limits: primary, RouterID: 1},
			{ID: "test/model-b", RouterID: 2, Limits: fakealbert.Limits{RPM: 100}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	root := t.TempDir()
	u := &albertUser{t: t, home: filepath.Join(root, "home", ".albert-code"), work: filepath.Join(root, "work"), srv: srv}
	xdg := filepath.Join(root, "xdg")
	u.config = filepath.Join(xdg, "albert-code", "config.toml")
	cfg := `model = "primary"

[[providers]]
name = "albert"
base_url = "` + srv.URL() + `"

[[models]]
name = "primary"
provider = "albert"
wire_name = "test/model-a"
aliases = ["alias-a"]
fallback_model = "backup"

[[models]]
name = "backup"
provider = "albert"
wire_name = "test/model-b"
` + extraConfig
	for path, content := range map[string]string{u.config: cfg, filepath.Join(u.work, "README.md"): "hi\n"} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u.env = append([]string{"HOME=" + filepath.Join(root, "home"), "ALBERT_CODE_HOME=" + u.home, "XDG_CONFIG_HOME=" + xdg,
		"ALBERT_API_KEY=test-key", "PATH=" + os.Getenv("PATH")}, goEnv...)
	return u
}

func (u *albertUser) run(args ...string) result {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = u.work, u.env, strings.NewReader("")
	return runToEnd(u.t, ctx, cmd, args)
}

const perMinute429 = `{"detail": "50 requests for test/model-a per minute exceeded."}`

func TestTwo429sFinishTheTurnOnTheFallbackModel(t *testing.T) {
	t.Parallel()
	u := newAlbertUser(t, fakealbert.Limits{}, "")
	u.srv.Inject(fakealbert.Canned{Status: 429, Body: perMinute429}, fakealbert.Canned{Status: 429, Body: perMinute429})
	r := u.run("-p", "say hello")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "ok" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant the fallback's answer in the same turn", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "test/model-a continues on test/model-b") {
		t.Fatalf("stderr does not show the switch:\n%s", r.stderr)
	}
	if s := u.srv.Stats(); s.Canned != 2 || s.Served != 1 {
		t.Fatalf("server stats %+v, want two 429s then one answer", s)
	}
}

func TestDailyQuota429EndsTheRunWithTheResetTimeAndIsRemembered(t *testing.T) {
	t.Parallel()
	// No fallback for this one.
	u := newAlbertUser(t, fakealbert.Limits{}, "")
	data, _ := os.ReadFile(u.config)
	if err := os.WriteFile(u.config, bytes.Replace(data, []byte(`fallback_model = "backup"`), nil, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	u.srv.Inject(fakealbert.Canned{Status: 429, Body: `{"detail": "1000 requests for test/model-a per day exceeded."}`})
	r := u.run("-p", "say hello")
	if r.code == 0 || !strings.Contains(r.stderr, "daily request quota exhausted on test/model-a") || !strings.Contains(r.stderr, "00:00 UTC") {
		t.Fatalf("exit %d, stderr:\n%s\nwant a failure naming the daily quota and its reset", r.code, r.stderr)
	}
	if s := u.srv.Stats(); s.Canned != 1 || s.Served != 0 {
		t.Fatalf("server stats %+v: a daily quota must not be retried", s)
	}
	state, err := os.ReadFile(filepath.Join(u.home, "throttle_state.json"))
	if err != nil || !bytes.Contains(state, []byte(`"model_name": "test/model-a"`)) {
		t.Fatalf("throttle_state.json = %s (%v)", state, err)
	}
	// The next run is warned at start-up and does not call the model.
	r = u.run("-p", "again")
	if !strings.Contains(r.stderr, "warning: the daily quota of test/model-a was exhausted") || u.srv.Stats().Served != 0 {
		t.Fatalf("second run: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

func TestStartUpQuotaWarningsAt80And95Percent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		used int
		want string
	}{
		{850, "warning: test/model-a has used 85 % (850 / 1,000 input tokens) of its daily quota"},
		{960, "critical: test/model-a has used 96 % (960 / 1,000 input tokens) of its daily quota"},
		{500, ""},
	} {
		u := newAlbertUser(t, fakealbert.Limits{TPD: 100000}, "\n[rate_limits.models.primary]\ntpd = 1000\n")
		u.srv.AddUsage("test/model-a", time.Now().Unix()-5, tc.used)
		u.srv.AddUsage("test/model-a", time.Now().Add(-48*time.Hour).Unix(), 900) // yesterday: not counted
		r := u.run("-p", "hello")
		if r.code != 0 {
			t.Fatalf("used %d: exit %d, stderr:\n%s", tc.used, r.code, r.stderr)
		}
		if tc.want == "" && strings.Contains(r.stderr, "quota") || tc.want != "" && !strings.Contains(r.stderr, tc.want) {
			t.Errorf("used %d: stderr:\n%s\nwant %q", tc.used, r.stderr, tc.want)
		}
	}
}

func TestQuotaCommandTableAndJSON(t *testing.T) {
	t.Parallel()
	u := newAlbertUser(t, fakealbert.Limits{RPM: 50, RPD: 1000, TPM: 128000, TPD: 2460000}, "\n[rate_limits.models.primary]\ntpd = 2460000\nrpd = 1000\n")
	for range 250 {
		u.srv.AddUsage("test/model-a", time.Now().Unix()-1, 8000) // 2,000,000 tokens: 81 %
	}
	u.srv.AddUsage("alias-a", time.Now().Unix()-1, 1000) // a configured alias counts for the same model
	r := u.run("quota")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"Ada ada@example.fr (id 7)", "test/model-a", "251 / 1,000 (25 %)", "2,001,000 / 2,460,000 (81 %)", "warning", "configuration",
		"ROUTER", "2,460,000", "∞"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("quota output lacks %q:\n%s", want, r.stdout)
		}
	}
	r = u.run("quota", "--json")
	var doc struct {
		Providers []struct {
			Provider string `json:"provider"`
			Models   []struct {
				Model       string `json:"model"`
				Requests    int64  `json:"requests_today"`
				InputTokens int64  `json:"input_tokens_today"`
				TPD         int64  `json:"tpd_limit"`
				Level       string `json:"level"`
			} `json:"models"`
			Routers []map[string]any `json:"routers"`
		} `json:"providers"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Providers) != 1 {
		t.Fatalf("quota --json: %v\n%s", err, r.stdout)
	}
	// The shipped Albert models have limits too and are listed with this user's.
	var m struct {
		Model       string `json:"model"`
		Requests    int64  `json:"requests_today"`
		InputTokens int64  `json:"input_tokens_today"`
		TPD         int64  `json:"tpd_limit"`
		Level       string `json:"level"`
	}
	for _, mm := range doc.Providers[0].Models {
		if mm.Model == "test/model-a" {
			m = mm
		}
	}
	if m.Model != "test/model-a" || m.Requests != 251 || m.InputTokens != 2001000 || m.TPD != 2460000 || m.Level != "warning" {
		t.Fatalf("first model = %+v", m)
	}
	if len(doc.Providers[0].Routers) != 2 {
		t.Fatalf("routers = %v, want the fake's two", doc.Providers[0].Routers)
	}
}

func TestQuotaCommandFailsWhenTheAccountCannotBeRead(t *testing.T) {
	t.Parallel()
	u := newAlbertUser(t, fakealbert.Limits{}, "")
	u.env = append(u.env, "ALBERT_API_KEY=wrong-key")
	r := u.run("quota")
	if r.code != 1 || !strings.Contains(r.stdout, "Invalid API key.") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}
