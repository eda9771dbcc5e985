package claude_test

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// TestRealClaudeProviderErrorKinds: whatever the provider's refusal, Claude Code
// exits 1 with the status in its result record; the run carries the reason (Claude
// Code's own words for some statuses) and the kind the API answers with (429, 502, 400). CLAUDE_CODE_MAX_RETRIES=0: the
// CLI would otherwise retry a 429 for minutes before giving up.
func TestRealClaudeProviderErrorKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		turn   fakemodel.Turn
		reason string
		kind   backend.ErrorKind
	}{
		{"429", fakemodel.AnthropicError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
			"rate limit", backend.ErrorRateLimit},
		{"401", fakemodel.AnthropicError(401, "authentication_error", "invalid x-api-key"), "Invalid API key", backend.ErrorAuth},
		{"413", fakemodel.AnthropicError(413, "request_too_large", "Request exceeds the maximum allowed number of bytes"),
			"Request too large", backend.ErrorProvider},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rc := newRealClaude(t, tc.turn)
			rc.opts.BaseEnv = append(rc.opts.BaseEnv, "CLAUDE_CODE_MAX_RETRIES=0")
			res, evs, err := rc.runAny(t.Context(), rc.request("Hi."))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.ProviderError, tc.reason) || res.ErrorKind != tc.kind || res.ExitCode != 1 || res.Text != "" {
				t.Errorf("provider error %q kind %q exit %d text %q; want %q kind %q\nstdout: %.3000s",
					res.ProviderError, res.ErrorKind, res.ExitCode, res.Text, tc.reason, tc.kind, res.Stdout)
			}
			if st := adaptertest.Stop(t, evs); st.StopReason != "error" {
				t.Errorf("stop %+v", st)
			}
		})
	}
}
