package albertcode

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// Whatever the subprocess prints, the run keeps what it could read and says what
// it could not, quoting the line; the stream says it as an error event.
func TestUnexpectedOutput(t *testing.T) {
	t.Parallel()
	delta := `{"type":"` + string(agent.EventTextDelta) + `","text":"Bonjour"}`
	result := `{"type":"result","text":"Bonjour","session_id":"20260113-093301-4f2a","stop_reason":"end_turn"}`
	tests := []struct {
		name, out, text string
		errHas          []string // nil: a readable run
	}{
		{"as it prints it", delta + "\n" + result, "Bonjour", nil},
		{"a line that is not JSON", "panic: something\n" + delta + "\n" + result, "Bonjour",
			[]string{`albert-code printed a line that is not a JSON record: "panic: something"`}},
		{"a truncated summary", delta + "\n" + `{"type":"result","text":"Bon`, "Bonjour",
			[]string{`albert-code printed a record that cannot be read`, `"{\"type\":\"result\",\"text\":\"Bon"`, "ended without its result record"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := (&Adapter{}).ParseOutput([]byte(tc.out), &backend.Request{})
			if res.Text != tc.text {
				t.Errorf("text %q, want %q", res.Text, tc.text)
			}
			for _, want := range tc.errHas {
				if !strings.Contains(res.OutputError, want) {
					t.Errorf("output error %q\nwant it to contain %q", res.OutputError, want)
				}
			}
			if tc.errHas == nil && res.OutputError != "" {
				t.Errorf("output error %q for a readable run", res.OutputError)
			}
			var streamed []string
			for _, e := range adaptertest.StreamAll(&Adapter{}, &backend.Request{}, []byte(tc.out)) {
				if e.Kind == backend.EventError {
					streamed = append(streamed, e.Text)
				}
			}
			if (len(streamed) > 0) != (tc.errHas != nil) || len(streamed) > 0 && !strings.Contains(res.OutputError, streamed[0]) {
				t.Errorf("streamed errors %q, output error %q", streamed, res.OutputError)
			}
		})
	}
}
