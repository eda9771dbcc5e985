package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// A 429's body says which limit was passed; the screen shows one line, the log file
// keeps the body.
func TestRateLimitBodyGoesToTheLogFile(t *testing.T) {
	t.Parallel()
	body := `{"detail":"rpm limit exceeded: 10 requests per minute for mistral-medium"}`
	h := newHarness(t,
		fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 429, Body: body}}.WithHeader("Retry-After", "0"),
		text("answered after the wait"),
	)
	r := h.run("-p", "hi")
	if r.code != ExitOK || !strings.Contains(r.stdout, "answered after the wait") {
		t.Fatalf("exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	log, err := os.ReadFile(filepath.Join(h.home, "logs", "albert-code.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "status=429") || !strings.Contains(string(log), "10 requests per minute") {
		t.Fatalf("the log does not keep the 429's body:\n%s", log)
	}
}
