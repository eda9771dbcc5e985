package app

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestServeMCPEndToEnd starts the real binary in MCP mode alone, on a port of its
// own, runs a prompt through the native adapter with the go-sdk client, and stops
// it with SIGTERM while the session is still open.
func TestServeMCPEndToEnd(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakemodel.Turn{Text: []string{"Hello over", " MCP."}})
	port := freePort(t)
	token := "mcp-e2e-token-0123456789abcdef"
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd, stderr, exited := startServe(ctx, t, h, "ALBERT_CODE_MCP_MODE=1",
		"ALBERT_CODE_MCP_MODE_PORT="+strconv.Itoa(port), "ALBERT_CODE_MCP_MODE_TOKEN="+token)

	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "e2e", Version: "1"}, nil)
	var cs *mcpsdk.ClientSession
	deadline := time.Now().Add(60 * time.Second)
	for {
		var err error
		cs, err = client.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp",
			HTTPClient: &http.Client{Transport: bearerTransport{token}}}, nil)
		if err == nil {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("serve exited before answering: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve never answered /mcp (%v):\n%s", err, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "run_prompt", Arguments: map[string]any{"prompt": "say hello", "workspace": "proj"}})
	if err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].(*mcpsdk.TextContent).Text != "Hello over MCP." {
		t.Errorf("run_prompt: %+v %v\n%s", res, err, stderr.String())
	}

	// Judgement: the shutdown waits for nothing here; 20 s would mean an open MCP
	// session held the HTTP drain up.
	stopServe(t, cmd, exited, stderr, 20*time.Second)
	if !strings.Contains(stderr.String(), "MCP listening") || strings.Contains(stderr.String(), "HTTP server shutdown") {
		t.Errorf("log:\n%s", stderr.String())
	}
}
