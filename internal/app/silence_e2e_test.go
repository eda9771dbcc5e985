package app

import (
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// A server that takes the request and says nothing: after a few seconds, text mode
// says on stderr what the run is waiting for, instead of looking hung.
func TestSilentServerIsAnnouncedOnStderr(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakemodel.Turn{Text: []string{"late answer"}, FirstByteDelay: 6500 * time.Millisecond})
	r := h.run("-p", "hi")
	if r.code != ExitOK || !strings.Contains(r.stdout, "late answer") {
		t.Fatalf("exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "albert-code: waiting for ") || !strings.Contains(r.stderr, "the server took the request but has sent nothing for 5s") {
		t.Fatalf("stderr does not say what the run waits for:\n%s", r.stderr)
	}
}
