package openai

import (
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// fakeAgent is the fake CLI agent of one test: answers[i] is what run i+1 prints.
type fakeAgent struct {
	dir  string
	root string
}

func cliServer(t *testing.T, answers ...string) (*httptest.Server, *fakeAgent) {
	t.Helper()
	return cliServerWith(t, "testdata/fake-chat.toml", answers...)
}

// cliServerWith serves the adapter file toml, whose binary is the fake agent.
func cliServerWith(t *testing.T, toml string, answers ...string) (*httptest.Server, *fakeAgent) {
	t.Helper()
	return cliServerOpts(t, toml, nil, answers...)
}

// cliServerOpts is cliServerWith with options changed by opt.
func cliServerOpts(t *testing.T, toml string, opt func(*Options), answers ...string) (*httptest.Server, *fakeAgent) {
	t.Helper()
	f := &fakeAgent{dir: t.TempDir(), root: t.TempDir()}
	for i, a := range answers {
		f.set(t, i+1, "answer", a)
	}
	script, err := filepath.Abs("testdata/fake-chat.sh")
	if err != nil {
		t.Fatal(err)
	}
	a, err := adapter.Resolve(toml, script)
	if err != nil {
		t.Fatal(err)
	}
	root, err := workspace.NewRoot(f.root)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{
		Backend:    a,
		Runner:     runner.New(runner.Options{BaseEnv: append(os.Environ(), "FAKE_DIR="+f.dir)}),
		Root:       root,
		TempParent: t.TempDir(),
		Authorize:  bearer(testToken),
		Logger:     slog.New(slog.DiscardHandler),
	}
	if opt != nil {
		opt(&opts)
	}
	h := New(opts)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, f
}

func (f *fakeAgent) set(t *testing.T, run int, what, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, fmt.Sprintf("%s.%d", what, run)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fakeAgent) read(t *testing.T, run int, what string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir, fmt.Sprintf("%s.%d", what, run)))
	if err != nil {
		t.Fatalf("run %d: %v", run, err)
	}
	return string(b)
}

func (f *fakeAgent) runs(t *testing.T) int {
	b, _ := os.ReadFile(filepath.Join(f.dir, "count"))
	var n int
	fmt.Sscan(string(b), &n)
	return n
}

func TestCLIAgentAnswersPlainChat(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t, "Bonjour\n", "line one\nline two\n")
	_, body := post(t, srv, chatPath, `{"model":"fast","messages":[{"role":"user","content":"Salut"}]}`)
	v := decode(t, body)
	if at(v, "choices", 0, "message", "content") != "Bonjour" || at(v, "model") != "fast" || at(v, "object") != "chat.completion" {
		t.Errorf("%s", body)
	}
	if p := f.read(t, 1, "prompt"); p != "Salut" {
		t.Errorf("a lone user message is the prompt itself, got %q", p)
	}
	if argv := f.read(t, 1, "argv"); !strings.Contains(argv, "--model\nfast") {
		t.Errorf("argv %q", argv)
	}
	if cwd := strings.TrimSpace(f.read(t, 1, "cwd")); strings.HasPrefix(cwd, f.root) {
		t.Errorf("without a workspace header the run is in a throw-away folder, got %s", cwd)
	}

	_, body = post(t, srv, chatPath, `{"stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Two lines?"}]}`,
		"X-Albert-Code-Workspace", "proj")
	evs := events(t, body)
	var text strings.Builder
	for _, e := range evs[:len(evs)-1] {
		if s, ok := at(decode(t, []byte(e)), "choices", 0, "delta", "content").(string); ok {
			text.WriteString(s)
		}
	}
	if text.String() != "line one\nline two\n" || evs[len(evs)-1] != "[DONE]" || !strings.Contains(evs[len(evs)-2], `"choices":[]`) {
		t.Errorf("stream %q", evs)
	}
	p := f.read(t, 2, "prompt")
	if !strings.Contains(p, "[SYSTEM]\nBe brief.") || !strings.Contains(p, "[USER]\nTwo lines?") {
		t.Errorf("transcript %q", p)
	}
	if cwd := strings.TrimSpace(f.read(t, 2, "cwd")); cwd != filepath.Join(f.root, "proj") {
		t.Errorf("workspace %s", cwd)
	}
}

func TestCLIToolCallsAreEmulated(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t,
		`{"tool_calls":[{"name":"get_weather","arguments":{"city":"Lyon"}},{"name":"get_time","arguments":"{}"}]}`,
		"It is 18C in Lyon.")
	_, body := post(t, srv, chatPath, `{"stream":true,"messages":[{"role":"user","content":"Weather in Lyon?"}],`+weatherTools+`}`)
	if !strings.Contains(string(body), `"name":"get_weather"`) || !strings.Contains(string(body), `"arguments":"{\"city\":\"Lyon\"}"`) ||
		!strings.Contains(string(body), `"name":"get_time"`) || !strings.Contains(string(body), `"finish_reason":"tool_calls"`) ||
		!strings.Contains(string(body), `"id":"call_`) {
		t.Errorf("streamed emulated calls: %s", body)
	}
	p := f.read(t, 1, "prompt")
	if !strings.Contains(p, `{"tool_calls": [`) || !strings.Contains(p, "- get_weather: Weather of a city.") || !strings.Contains(p, "plain text") {
		t.Errorf("directive %q", p)
	}
	if argv := f.read(t, 1, "argv"); !strings.Contains(argv, "--no-tools") {
		t.Errorf("the agent's own tools stay on: %q", argv)
	}
	_, body = post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather in Lyon?"},
		{"role":"assistant","content":"Let me check.","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Lyon\"}"}}]},
		{"role":"tool","tool_call_id":"c1","content":"18C"}],`+weatherTools+`}`)
	if at(decode(t, body), "choices", 0, "message", "content") != "It is 18C in Lyon." {
		t.Errorf("%s", body)
	}
	p = f.read(t, 2, "prompt")
	for _, want := range []string{"[ASSISTANT]\nLet me check.", "[ASSISTANT called tools]\nget_weather({\"city\":\"Lyon\"}) id c1", "[TOOL RESULT get_weather (c1)]\n18C"} {
		if !strings.Contains(p, want) {
			t.Errorf("transcript lacks %q: %q", want, p)
		}
	}
}

func TestCLIRequiredToolCallsAreEnforced(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t,
		"I think it is sunny.",
		`{"tool_calls":[{"name":"get_time"}]}`,
		`{"tool_calls":[{"name":"get_weather","arguments":{"city":"Lyon"}}]}`)
	_, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather?"}],`+weatherTools+`,"tool_choice":{"type":"function","function":{"name":"get_weather"}}}`)
	v := decode(t, body)
	if at(v, "choices", 0, "finish_reason") != "tool_calls" || at(v, "choices", 0, "message", "tool_calls", 0, "function", "name") != "get_weather" ||
		at(v, "choices", 0, "message", "content") != nil {
		t.Errorf("%s", body)
	}
	if f.runs(t) != 3 || !strings.Contains(f.read(t, 1, "prompt"), "You must call the tool get_weather now.") ||
		!strings.Contains(f.read(t, 2, "prompt"), "Your last reply called no tool, but you must call the tool \"get_weather\" now.") ||
		!strings.Contains(f.read(t, 3, "prompt"), "Your last reply called \"get_time\", but you must call the tool \"get_weather\" now.") {
		t.Errorf("%d runs; last prompt %q", f.runs(t), f.read(t, 3, "prompt"))
	}
}

func TestCLISchemaAnswersAndFailures(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t, "Sure!\n```json\n{\"city\":\"Lyon\",\"temp\":18}\n```\n", "partial", `{"tool_calls":[{"name":"get_weather","arguments":{"city":"Lyon"}}]}`)
	_, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather?"}],`+citySchema+`}`)
	if at(decode(t, body), "choices", 0, "message", "content") != `{"city":"Lyon","temp":18}` {
		t.Errorf("%s", body)
	}
	if p := f.read(t, 1, "prompt"); !strings.Contains(p, "JSON Schema") {
		t.Errorf("prompt %q", p)
	}
	f.set(t, 2, "exit", "3")
	f.set(t, 2, "stderr", "Error: 529 overloaded")
	resp, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather?"}],`+citySchema+`}`)
	if resp.StatusCode != 500 || !strings.Contains(string(body), "code 3") || !strings.Contains(string(body), "529 overloaded") || f.runs(t) != 2 {
		t.Errorf("a crash: %d %s after %d runs", resp.StatusCode, body, f.runs(t))
	}
	_, body = post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather?"}],`+weatherTools+`,`+citySchema+`}`)
	if at(decode(t, body), "choices", 0, "finish_reason") != "tool_calls" {
		t.Errorf("tools and schema: a tool turn is returned unchecked: %s", body)
	}
}

func TestCLIBadWorkspaceAndCrashes(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t, "half an answ")
	resp, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"hi"}]}`, "X-Albert-Code-Workspace", "../etc")
	if v := decode(t, body); resp.StatusCode != 400 || at(v, "error", "param") != "X-Albert-Code-Workspace" {
		t.Errorf("traversal: %d %s", resp.StatusCode, body)
	}
	f.set(t, 1, "exit", "2")
	resp, body = post(t, srv, chatPath, `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"half an answ`) || !strings.Contains(string(body), `"code":"agent_failed"`) || strings.Contains(string(body), "[DONE]") {
		t.Errorf("a crash mid-stream: %d %s", resp.StatusCode, body)
	}
	resp, body = post(t, srv, chatPath, `{"messages":[{"role":"user","content":"hi"}]}`)
	if resp.StatusCode != 200 {
		t.Errorf("an empty answer: %d %s", resp.StatusCode, body)
	}
}
