package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

func TestToolsList(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cs := h.connect(t)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	want := []string{"code_graph", "delete_file", "list_files", "read_file", "run_prompt", "write_file"}
	if !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
}

func TestFileTools(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cs := h.connect(t)

	res := call(t, cs, "write_file", map[string]any{"path": "proj/src/a.txt", "content": "héllo\n"})
	if res.IsError || !strings.Contains(text(res), `"size":7`) {
		t.Fatalf("write_file = %s", text(res))
	}
	if got, _ := os.ReadFile(filepath.Join(h.root, "proj/src/a.txt")); string(got) != "héllo\n" {
		t.Errorf("file on disk = %q", got)
	}
	res = call(t, cs, "read_file", map[string]any{"path": "proj/src/a.txt"})
	var read ReadOut
	if err := json.Unmarshal([]byte(text(res)), &read); err != nil || res.IsError || read.Content != "héllo\n" || read.Binary {
		t.Errorf("read_file = %s (%v)", text(res), err)
	}
	writeFile(t, filepath.Join(h.root, "proj/bin.dat"), "a\xffb")
	res = call(t, cs, "read_file", map[string]any{"path": "proj/bin.dat"})
	if err := json.Unmarshal([]byte(text(res)), &read); err != nil || !read.Binary || read.Content != "a\uFFFDb" {
		t.Errorf("read_file(binary) = %s (%v)", text(res), err)
	}
	res = call(t, cs, "list_files", map[string]any{"path": "proj"})
	var list ListOut
	if err := json.Unmarshal([]byte(text(res)), &list); err != nil || res.IsError {
		t.Fatalf("list_files = %s (%v)", text(res), err)
	}
	want := []workspace.Entry{{Name: "bin.dat", Type: "file", Size: 3}, {Name: "src", Type: "dir"}}
	if !slices.Equal(list.Entries, want) || list.Path != "/proj" {
		t.Errorf("list_files = %+v, want %+v", list, want)
	}
	res = call(t, cs, "list_files", map[string]any{})
	if res.IsError || !strings.Contains(text(res), `"name":"proj"`) {
		t.Errorf("list_files(root) = %s", text(res))
	}
	res = call(t, cs, "delete_file", map[string]any{"path": "proj/src/a.txt"})
	if res.IsError {
		t.Errorf("delete_file = %s", text(res))
	}
	if _, err := os.Stat(filepath.Join(h.root, "proj/src/a.txt")); !os.IsNotExist(err) {
		t.Errorf("deleted file still there: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(h.root, "proj/src/.albert-code-upload-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestFileToolErrors: every refusal is a tool error (the model reads it) that names
// the fault, and nothing outside the root is touched.
func TestFileToolErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), "secret")
	if err := os.Symlink(outside, filepath.Join(h.root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(h.root, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	cs := h.connect(t)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_file", map[string]any{"path": "../secret.txt"}, `".." is not allowed`},
		{"read_file", map[string]any{"path": "/etc/passwd"}, "absolute paths are not allowed"},
		{"read_file", map[string]any{"path": "escape/secret.txt"}, "symbolic link leads outside"},
		{"list_files", map[string]any{"path": "escape"}, "symbolic link leads outside"},
		{"write_file", map[string]any{"path": "escape/new.txt", "content": "x"}, "symbolic link leads outside"},
		{"write_file", map[string]any{"path": "a/../../x", "content": "x"}, `".." is not allowed`},
		{"delete_file", map[string]any{"path": "escape/secret.txt"}, "symbolic link leads outside"},
		{"delete_file", map[string]any{"path": "folder"}, "it is a folder"},
		{"delete_file", map[string]any{"path": ""}, "path is required"},
		{"read_file", map[string]any{"path": "missing.txt"}, "missing.txt: no such file"},
		{"read_file", map[string]any{"path": "folder"}, "use list_files"},
		{"write_file", map[string]any{"path": "folder", "content": "x"}, "it is a folder"},
	} {
		res := call(t, cs, tc.tool, tc.args)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("%s(%v) = error %v %q, want an error with %q", tc.tool, tc.args, res.IsError, text(res), tc.want)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(got) != "secret" {
		t.Errorf("the file outside the root changed: %q", got)
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("write_file wrote outside the root: %v", err)
	}
}

func TestReadFileLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.mcp.opts.MaxFile = 10
	writeFile(t, filepath.Join(h.root, "big.txt"), strings.Repeat("x", 11))
	res := call(t, h.connect(t), "read_file", map[string]any{"path": "big.txt"})
	if !res.IsError || !strings.Contains(text(res), "GET /files/big.txt") {
		t.Errorf("read_file(big) = %q", text(res))
	}
}

func TestRunPrompt(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cs := h.connect(t)

	res := call(t, cs, "run_prompt", map[string]any{"prompt": "list the files", "workspace": "proj"})
	if res.IsError || text(res) != "echo: list the files" {
		t.Fatalf("run_prompt = %v %q", res.IsError, text(res))
	}
	var ans struct {
		RunID, Workspace, Text string
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &ans); err != nil || ans.RunID == "" || ans.Workspace != filepath.Join(h.root, "proj") {
		t.Fatalf("structured content = %s (%v)", raw, err)
	}
	run, err := h.store.Get(t.Context(), ans.RunID)
	if err != nil || run.Status != runstore.Completed {
		t.Errorf("run store: %+v, %v", run, err)
	}

	res = call(t, cs, "run_prompt", map[string]any{"prompt": "is it?", "jsonSchema": map[string]any{
		"type": "object", "required": []string{"answer"}, "properties": map[string]any{"answer": map[string]any{"type": "string"}}}})
	raw, _ = json.Marshal(res.StructuredContent)
	if res.IsError || !strings.Contains(string(raw), `"json":{"answer":"yes"}`) || !strings.Contains(string(raw), `"sessionId":"session-1"`) {
		t.Errorf("run_prompt(jsonSchema) = %v %s", res.IsError, raw)
	}

	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"prompt": "x", "workspace": "../up"}, `(HTTP 400 Bad Request): workspace path "../up"`},
		{map[string]any{"prompt": "x", "jsonSchema": map[string]any{"type": 12}}, `(HTTP 400 Bad Request): field "jsonSchema"`},
		{map[string]any{"prompt": ""}, "prompt"},
	} {
		res := call(t, cs, "run_prompt", tc.args)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("run_prompt(%v) = %v %q, want an error with %q", tc.args, res.IsError, text(res), tc.want)
		}
	}
}

// TestRunPromptDoesNotBlock is the original's bug turned into a specification: a
// run in flight holds up neither other tools in the same session, nor other
// sessions, nor the API.
func TestRunPromptDoesNotBlock(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cs := h.connect(t)
	other := h.connect(t)

	done := make(chan *mcpsdk.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: "run_prompt", Arguments: map[string]any{"prompt": "slow task"}})
		if err != nil {
			res = &mcpsdk.CallToolResult{IsError: true, Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: err.Error()}}}
		}
		done <- res
	}()
	select {
	case <-h.agent.started:
	case <-time.After(testWait):
		t.Fatal("the slow run never started")
	}
	// Judgement: a listing takes milliseconds; a second means it waited.
	for name, s := range map[string]*mcpsdk.ClientSession{"same session": cs, "other session": other} {
		start := time.Now()
		res := call(t, s, "list_files", map[string]any{})
		if res.IsError || time.Since(start) > time.Second {
			t.Errorf("%s: list_files took %v during a run: %q", name, time.Since(start), text(res))
		}
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, h.http.URL+"/healthz", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("/healthz during a run: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	select {
	case res := <-done:
		t.Fatalf("the slow run ended early: %q", text(res))
	default:
	}
	close(h.agent.release)
	select {
	case res := <-done:
		if res.IsError || text(res) != "echo: slow task" {
			t.Errorf("run_prompt = %v %q", res.IsError, text(res))
		}
	case <-time.After(testWait):
		t.Fatal("the slow run did not finish once released")
	}
}

// TestRunPromptCancelled: a client that cancels the call cancels the run, as a
// client hanging up on a sync POST /run does, and the run store says so.
func TestRunPromptCancelled(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cs := h.connect(t)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "run_prompt", Arguments: map[string]any{"prompt": "slow task"}})
		errc <- err
	}()
	select {
	case <-h.agent.started:
	case <-time.After(testWait):
		t.Fatal("the slow run never started")
	}
	cancel()
	select {
	case cause := <-h.agent.stopped:
		if cause == nil || !strings.Contains(cause.Error(), "disconnected") {
			t.Errorf("run stopped by %v, want the client's departure", cause)
		}
	case <-time.After(testWait):
		t.Fatal("cancelling the call did not stop the run")
	}
	<-errc
	runs, err := h.store.List(t.Context(), runstore.Filter{})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
	deadline := time.Now().Add(testWait)
	for {
		run, err := h.store.Get(t.Context(), runs[0].ID)
		if err == nil && run.Status == runstore.Cancelled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("run = %+v, %v; want cancelled", run, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestRunPromptTakesTheOriginalNames(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cs := h.connect(t)
	res := call(t, cs, "run_prompt", map[string]any{"prompt": "hi", "workspace": "proj", "system_prompt": "Be a pirate.",
		"append_system_prompt": "Be brief.", "no_continue": true, "timeout_seconds": 60,
		"json_schema": map[string]any{"type": "object", "required": []string{"answer"}}})
	raw, _ := json.Marshal(res.StructuredContent)
	if res.IsError || !strings.Contains(string(raw), `"json":{"answer":"yes"}`) {
		t.Fatalf("run_prompt = %v %s %q", res.IsError, raw, text(res))
	}
	reqs := h.agent.requests()
	got := reqs[len(reqs)-1]
	if got.SystemPrompt != "Be a pirate." || got.AppendSystemPrompt != "Be brief." || got.Continue || got.Timeout != time.Minute {
		t.Errorf("the agent got %+v", got)
	}

	// By default a run continues the workspace's session, as /run does.
	if res := call(t, cs, "run_prompt", map[string]any{"prompt": "again", "workspace": "proj"}); res.IsError {
		t.Fatalf("%q", text(res))
	}
	reqs = h.agent.requests()
	if !reqs[len(reqs)-1].Continue {
		t.Errorf("run_prompt without noContinue started a new session")
	}

	res = call(t, cs, "run_prompt", map[string]any{"prompt": "x", "noContinue": false, "no_continue": true})
	if !res.IsError || !strings.Contains(text(res), "noContinue and no_continue") {
		t.Errorf("conflicting names: %v %q", res.IsError, text(res))
	}
	if n := len(h.agent.requests()); n != len(reqs) {
		t.Errorf("a refused call ran the agent")
	}
}

func TestRunPromptSchemaDocumentsTheDefault(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cs := h.connect(t)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != "run_prompt" {
			continue
		}
		schema, _ := json.Marshal(tool.InputSchema)
		for _, want := range []string{`"no_continue"`, `"system_prompt"`, `"json_schema"`, `by default (false) the run continues`} {
			if !strings.Contains(string(schema), want) {
				t.Errorf("run_prompt's schema lacks %s: %s", want, schema)
			}
		}
		if !strings.Contains(tool.Description, "continues the workspace's last session unless noContinue") {
			t.Errorf("description %q", tool.Description)
		}
		return
	}
	t.Fatal("no run_prompt tool")
}

// A line of the agent's output that could not be read reaches the tool's caller:
// in /run's answer (structuredContent) and in the text a model reads.
func TestRunPromptReportsUnreadableOutput(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cs := h.connect(t)
	res := call(t, cs, "run_prompt", map[string]any{"prompt": "garbled run"})
	if res.IsError || !strings.HasPrefix(text(res), "echo: garbled run") || !strings.Contains(text(res), garbledLine) {
		t.Errorf("run_prompt = %v %q", res.IsError, text(res))
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var ans struct{ OutputError string }
	if err := json.Unmarshal(raw, &ans); err != nil || ans.OutputError != garbledLine {
		t.Errorf("structured content = %s (%v)", raw, err)
	}
}
