package agentenv

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

// providerEnv loads an Env whose config has one provider of each new kind, at the
// given URLs, plus the extra TOML.
func providerEnv(t *testing.T, anthropicURL, mistralURL, geminiURL, extra string) *Env {
	t.Helper()
	root := t.TempDir()
	cfg := `
[[providers]]
name = "anthropic"
base_url = "` + anthropicURL + `"
[[providers]]
name = "mistral"
base_url = "` + mistralURL + `/v1"
[[providers]]
name = "gemini"
kind = "vertex"
base_url = "` + geminiURL + `"
api_key_env = "GEMINI_API_KEY"
` + extra
	path := filepath.Join(root, "xdg", "albert-code", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": filepath.Join(root, "home"), "ALBERT_CODE_HOME": filepath.Join(root, "home", ".albert-code"),
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "ANTHROPIC_API_KEY": "ak", "MISTRAL_API_KEY": "mk", "GEMINI_API_KEY": "gk"}
	e, err := Load(Options{WorkDir: root, LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func providerNamed(t *testing.T, e *Env, name string) llm.Provider {
	t.Helper()
	p, err := e.Config.Provider(name)
	if err != nil {
		t.Fatal(err)
	}
	client, err := e.NewProvider(p)
	if err != nil {
		t.Fatalf("NewProvider(%s): %v", name, err)
	}
	return client
}

func streamOnce(t *testing.T, p llm.Provider, req llm.Request) *llm.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, err := p.Stream(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// One session, three providers: a tool turn on Anthropic, the next turn on
// Mistral, the one after on Gemini, each request valid for its own wire.
func TestProviderSwitchKeepsTheHistoryValid(t *testing.T) {
	a := providertest.New(t, providertest.SSE("../llm/anthropic/testdata/thinking_tool.sse"))
	m := providertest.New(t, providertest.SSE("../llm/mistral/testdata/tool_calls.sse"))
	g := providertest.New(t, providertest.SSE("../llm/vertex/testdata/text.sse"))
	e := providerEnv(t, a.URL, m.URL, g.URL, "")

	history := []llm.Message{{Role: llm.RoleUser, Content: "Read main.go"}}
	runTools := func(resp *llm.Response) {
		history = append(history, resp.Message)
		for _, c := range resp.Message.ToolCalls {
			history = append(history, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, ToolName: c.Name, Content: "ok"})
		}
	}
	runTools(streamOnce(t, providerNamed(t, e, "anthropic"), llm.Request{Model: "claude-sonnet-4-5", Messages: history}))
	runTools(streamOnce(t, providerNamed(t, e, "mistral"), llm.Request{Model: "mistral-large-latest", Messages: history}))
	streamOnce(t, providerNamed(t, e, "gemini"), llm.Request{Model: "gemini-2.5-flash", Messages: history})

	if got := a.Requests()[0].Header.Get("X-Api-Key"); got != "ak" {
		t.Errorf("Anthropic auth = %q", got)
	}
	mistralBody := string(m.Requests()[0].Raw)
	for _, id := range regexp.MustCompile(`"(?:id|tool_call_id)":"([^"]*)"`).FindAllStringSubmatch(mistralBody, -1) {
		if !regexp.MustCompile(`^[a-zA-Z0-9]{9}$`).MatchString(id[1]) {
			t.Errorf("Mistral was sent the id %q", id[1])
		}
	}
	if strings.Contains(mistralBody, "reasoning") {
		t.Errorf("Anthropic thinking sent to Mistral: %s", mistralBody)
	}
	gr := g.Requests()[0]
	if gr.Header.Get("X-Goog-Api-Key") != "gk" {
		t.Errorf("Gemini key = %q", gr.Header.Get("X-Goog-Api-Key"))
	}
	contents := gr.JSON(t)["contents"].([]any)
	// user, model (Anthropic's calls), user (results), model (Mistral's calls), user (results)
	if len(contents) != 5 {
		t.Fatalf("Gemini got %d contents: %s", len(contents), gr.Raw)
	}
	for _, i := range []int{1, 3} {
		parts := contents[i].(map[string]any)["parts"].([]any)
		var calls int
		for _, p := range parts {
			if _, ok := p.(map[string]any)["functionCall"]; ok {
				calls++
			}
		}
		results := contents[i+1].(map[string]any)["parts"].([]any)
		if calls == 0 || calls != len(results) {
			t.Errorf("model turn %d has %d calls and %d results", i, calls, len(results))
		}
	}
}

func TestVertexConfigErrorsNameTheFix(t *testing.T) {
	tests := []struct{ name, extra, want string }{
		{"no key, no project", "[[providers]]\nname = \"vx\"\nkind = \"vertex\"\n", "api_key_env"},
		{"project without location", "[[providers]]\nname = \"vx\"\nkind = \"vertex\"\nproject = \"p\"\n", "location"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := providerEnv(t, "http://127.0.0.1:1", "http://127.0.0.1:1", "http://127.0.0.1:1", tt.extra)
			p, err := e.Config.Provider("vx")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.NewProvider(p); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one naming %s", err, tt.want)
			}
		})
	}
}
