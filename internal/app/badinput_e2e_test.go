package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func TestBadInputGetsAClearError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		config   string
		env      []string
		args     []string
		wantCode int
		want     []string
	}{
		{name: "malformed config", config: "model = \"x\"\n[bash\ntimeout = 3\n", args: []string{"-p", "hi"},
			wantCode: ExitUsage, want: []string{"config.toml", ":2"}},
		{name: "unknown key", config: "modle = \"x\"\n", args: []string{"-p", "hi"},
			wantCode: ExitUsage, want: []string{"config.toml:1", "modle", "model"}},
		{name: "bad permission", config: "[tools.bash]\npermission = \"sometimes\"\n", args: []string{"-p", "hi"},
			wantCode: ExitUsage, want: []string{"config.toml", "sometimes"}},
		{name: "unknown model", args: []string{"-p", "--model", "gpt-17", "hi"},
			wantCode: ExitUsage, want: []string{"unknown model", "gpt-17"}},
		{name: "unknown profile", args: []string{"-p", "--agent", "wizard", "hi"},
			wantCode: ExitUsage, want: []string{"wizard", "plan"}},
		{name: "missing key", env: []string{"ALBERT_API_KEY="}, args: []string{"-p", "hi"},
			wantCode: ExitUsage, want: []string{"ALBERT_API_KEY"}},
		{name: "bad output", args: []string{"-p", "--output", "yaml", "hi"},
			wantCode: ExitUsage, want: []string{"yaml"}},
		{name: "bad tool pattern", args: []string{"-p", "--enabled-tools", "re:(", "hi"},
			wantCode: ExitUsage, want: []string{"re:("}},
		{name: "no prompt", args: []string{"-p"},
			wantCode: ExitUsage, want: []string{"no prompt"}},
		{name: "unknown session", args: []string{"-p", "--resume", "nosuchid", "hi"},
			wantCode: ExitUsage, want: []string{"nosuchid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, text("should not be reached"))
			if tt.config != "" {
				h.globalConfig(tt.config)
			}
			h.env = append(h.env, tt.env...)
			r := h.run(tt.args...)
			if r.code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", r.code, tt.wantCode, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q does not mention %q", r.stderr, w)
				}
			}
			// An unknown model name reads the server's model list (to name what it
			// serves); no chat request is ever made.
			if chats, _ := h.chatModels(); len(chats) != 0 {
				t.Errorf("%d chat requests were made despite the bad input", len(chats))
			}
		})
	}
}

func TestUnreachableEndpointNamesTheURL(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env = append(h.env, "ALBERT_CODE_BASE_URL=http://127.0.0.1:1/v1")
	cmd := h.command(t.Context(), "-p", "--output", "json", "hi")
	cmd.Env = append(cmd.Env, "ALBERT_CODE_BASE_URL=http://127.0.0.1:1/v1")
	out, err := cmd.Output()
	if err == nil {
		t.Fatal("run against a closed port succeeded")
	}
	s := h.summary(result{stdout: string(out)})
	if s.StopReason != "error" || !strings.Contains(s.Error, "http://127.0.0.1:1/v1") {
		t.Fatalf("summary = %+v", s)
	}
}

func TestServerErrorsAreRetriedThenExplained(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		fakemodel.AlbertError(503, "Model is too busy, please try again later.").WithHeader("Retry-After", "0"),
		text("made it"),
	)
	r := h.run("-p", "hi")
	if r.code != ExitOK || strings.TrimSpace(r.stdout) != "made it" || !strings.Contains(r.stderr, "too busy") {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	h2 := newHarness(t, fakemodel.AlbertError(400, "Model 'nope' not found"))
	r = h2.run("-p", "hi")
	if r.code != ExitError || !strings.Contains(r.stderr, "Model 'nope' not found") || len(h2.srv.Requests()) != 1 {
		t.Fatalf("exit %d stderr %q after %d requests", r.code, r.stderr, len(h2.srv.Requests()))
	}
}

func TestConfigShowMasksSecretsAndNamesSources(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.globalConfig("model = \"qwen\"\n")
	h.env = append(h.env, "ALBERT_API_KEY=sk-secret-value-1234")
	r := h.run("config", "show")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "sk-secret-value-1234") {
		t.Fatal("config show printed the API key")
	}
	cfgPath := filepath.Join(filepath.Dir(filepath.Dir(h.home)), "xdg", "albert-code", "config.toml")
	for _, want := range []string{"qwen", cfgPath, "ALBERT_CODE_BASE_URL", h.srv.URL()} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("config show lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestCompletionAndHelp(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if r := h.run("completion", "bash"); r.code != ExitOK || !strings.Contains(r.stdout, "albert-code") {
		t.Fatalf("completion: %+v", r)
	}
	for _, sub := range [][]string{{"--help"}, {"sessions", "--help"}, {"config", "show", "--help"}, {"trust", "--help"}} {
		if r := h.run(sub...); r.code != ExitOK || !strings.Contains(r.stdout, "Usage") {
			t.Errorf("%v: %+v", sub, r)
		}
	}
	if _, err := os.Stat(filepath.Join(h.home, "sessions")); err == nil {
		t.Error("help created a session")
	}
}

func TestSlowEndpointTimesOutWithAClearError(t *testing.T) {
	t.Parallel()
	slow := fakemodel.Turn{Text: []string{"late"}, FirstByteDelay: 10 * time.Second}
	h := newHarness(t, slow, slow, slow, slow)
	h.globalConfig("[[providers]]\nname = \"albert\"\ntimeout = \"200ms\"\n")
	start := time.Now()
	r := h.run("-p", "--output", "json", "hi")
	if r.code != ExitError || time.Since(start) > 30*time.Second {
		t.Fatalf("exit %d after %v; stderr %s", r.code, time.Since(start), r.stderr)
	}
	s := h.summary(r)
	if s.StopReason != "error" || !strings.Contains(s.Error, h.srv.URL()) || !strings.Contains(s.Error, "200ms") {
		t.Fatalf("summary = %+v", s)
	}
}
