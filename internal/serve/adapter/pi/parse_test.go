package pi

import (
	"bytes"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// Whatever pi prints, the run keeps what it could read and says what it could
// not, quoting the line; the stream says it as an error event.
func TestPiUnexpectedOutput(t *testing.T) {
	t.Parallel()
	good := adaptertest.Transcript(t, "pi.jsonl")
	end := bytes.LastIndex(good, []byte(`{"type":"agent_end"`))
	if end < 0 {
		t.Fatal("pi.jsonl has no agent_end")
	}
	tests := []struct {
		name     string
		out      []byte
		problems int // lines reported
		errHas   []string
	}{
		{"as pi prints it", good, 0, nil},
		{"a new event type, twice", append([]byte(`{"type":"turn_paused","why":1}`+"\n"+`{"type":"turn_paused"}`+"\n"), good...), 1,
			[]string{`record of a type this adapter does not read ("turn_paused"; pi 0.73.1 was tested), skipped: "{\"type\":\"turn_paused\",\"why\":1}"`}},
		{"a line that is not JSON", append([]byte("Update available: pi 0.80\n"), good...), 1,
			[]string{`pi printed a line that is not a JSON record: "Update available: pi 0.80"`}},
		{"a truncated record", append(good[:end:end], []byte(`{"type":"agent_end","messages":[{"ro`)...), 1,
			[]string{`pi printed a record that cannot be read`, `"{\"type\":\"agent_end\",\"messages\":[{\"ro"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := (&Adapter{}).ParseOutput(tc.out, &backend.Request{})
			if res.Text != "There is one Go file: main.go." || res.SessionID != adaptertest.PiSession || res.Usage.InputTokens != 120 {
				t.Errorf("what could be read was lost: %+v", res)
			}
			for _, want := range tc.errHas {
				if !strings.Contains(res.OutputError, want) {
					t.Errorf("output error %q\nwant it to contain %q", res.OutputError, want)
				}
			}
			if n := strings.Count(res.OutputError, "pi printed"); n != tc.problems {
				t.Errorf("%d problems in %q, want %d", n, res.OutputError, tc.problems)
			}
			var streamed []string
			for _, e := range adaptertest.StreamAll(&Adapter{}, &backend.Request{}, tc.out) {
				if e.Kind == backend.EventError {
					streamed = append(streamed, e.Text)
				}
			}
			if strings.Join(streamed, "; ") != res.OutputError {
				t.Errorf("streamed errors %q, want %q", streamed, res.OutputError)
			}
		})
	}
}
