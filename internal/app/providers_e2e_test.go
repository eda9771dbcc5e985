package app

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

// Each new wire format runs a whole headless tool loop in the real binary against a
// fake server speaking that format: a read call, then an answer, with the file's
// text and the provider's own signature sent back on the second request.
func TestProvidersRunAToolLoop(t *testing.T) {
	tests := []struct {
		name, kind, wire, keyVar string
		// baseSuffix is appended to the fake's URL to make the provider's base_url.
		baseSuffix string
		// sentBack must all appear in the second request's body.
		sentBack []string
	}{
		{"anthropic", "anthropic", "claude-sonnet-4-5", "ANTHROPIC_API_KEY", "",
			[]string{`"signature":"E2eSignatureAnthropic=="`, `"tool_use_id":"toolu_01E2eRead"`, "secret-line"}},
		{"mistral", "mistral", "mistral-large-latest", "MISTRAL_API_KEY", "/v1",
			[]string{`"tool_call_id":"Rd7x2Qp9z"`, `"name":"read"`, "secret-line"}},
		{"gemini", "vertex", "gemini-3-pro-preview", "GEMINI_API_KEY", "",
			[]string{`"thoughtSignature":"RTJlU2lnbmF0dXJlR2VtaW5p"`, `"functionResponse"`, "secret-line"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t,
				providertest.SSE("testdata/providers/"+tt.name+"_read.sse"),
				providertest.SSE("testdata/providers/"+tt.name+"_done.sse"))
			h := newHarness(t)
			h.writeFile("notes.txt", "secret-line\n")
			h.writeUnder(filepath.Join(filepath.Dir(filepath.Dir(h.home)), "xdg"), "albert-code/config.toml", `model = "m"
[[providers]]
name = "p"
kind = "`+tt.kind+`"
base_url = "`+srv.URL+tt.baseSuffix+`"
api_key_env = "`+tt.keyVar+`"
[[models]]
name = "m"
provider = "p"
wire_name = "`+tt.wire+`"
`)
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, binary, "-p", "--trust", "--output", "json", "read notes.txt")
			cmd.Dir = h.work
			cmd.Env = append(h.env, tt.keyVar+"=test-key")
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Run(); err != nil {
				t.Fatalf("albert-code: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errOut.String())
			}
			s := h.summary(result{stdout: out.String(), stderr: errOut.String()})
			if s.Text != "Done." || s.Usage.InputTokens < 1850 {
				t.Errorf("summary = %+v", s)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			second := string(reqs[1].Raw)
			for _, want := range tt.sentBack {
				if !strings.Contains(second, want) {
					t.Errorf("second request lacks %s:\n%s", want, second)
				}
			}
		})
	}
}
