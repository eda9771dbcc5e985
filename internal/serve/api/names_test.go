package api

import (
	"net/http"
	"strings"
	"testing"
)

// An over-long file or workspace name is the client's fault: a 400 naming the
// limit on every endpoint that takes one, never a 500.
func TestOverLongNamesAre400(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	long := strings.Repeat("x", 5000)
	component := "dir/" + strings.Repeat("y", 256)
	tests := []struct {
		name, method, path, body, limit string
	}{
		{"get a long path", "GET", "/files/" + long, "", "at most 4096"},
		{"put a long path", "PUT", "/files/" + long, "data", "at most 4096"},
		{"delete a long path", "DELETE", "/files/" + long, "", "at most 4096"},
		{"put a long name", "PUT", "/files/" + component, "data", "at most 255"},
		{"run in a long workspace", "POST", "/run", `{"prompt":"hi","workspace":"` + long + `"}`, "at most 4096"},
		{"run in a long folder name", "POST", "/run", `{"prompt":"hi","workspace":"` + component + `"}`, "at most 255"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e errorBody
			var body any
			if tc.body != "" {
				body = tc.body
			}
			resp, raw := h.do(tc.method, tc.path, body, &e)
			wantStatus(t, resp, raw, http.StatusBadRequest)
			if !strings.Contains(e.Detail, tc.limit) || len(e.Detail) > 500 {
				t.Errorf("detail %q: want one naming the limit (%s), short", e.Detail, tc.limit)
			}
		})
	}
}
