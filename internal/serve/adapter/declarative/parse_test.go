package declarative

import (
	"bytes"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/codex"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// Whatever a declared agent prints, the run keeps what the file's selectors could
// read and says what could not, quoting the line; the stream says it as an error
// event. A record of a type no selector names is no problem: the file lists what
// it reads, not every type the agent prints.
func TestDeclarativeUnexpectedOutput(t *testing.T) {
	t.Parallel()
	d, err := LoadFile("../testdata/codex-like.toml")
	if err != nil {
		t.Fatal(err)
	}
	good := adaptertest.Transcript(t, "codex.jsonl")
	end := bytes.LastIndex(good, []byte(`{"type":"turn.completed"`))
	if end < 0 {
		t.Fatal("codex.jsonl has no turn.completed")
	}
	wantText := (&codex.Adapter{}).ParseOutput(good, &backend.Request{Continue: true}).Text
	tests := []struct {
		name   string
		out    []byte
		errHas []string // nil: a readable run
	}{
		{"a new record type", append([]byte(`{"type":"turn.paused","why":1}`+"\n"), good...), nil},
		{"a line that is not JSON", append([]byte("Reading prompt from stdin...\n"), good...),
			[]string{`codex-like printed a line that is not a JSON record: "Reading prompt from stdin..."`}},
		{"a truncated record", append(good[:end:end], []byte(`{"type":"turn.completed","usage":{"input_tok`)...),
			[]string{`codex-like printed a record that cannot be read (unexpected end of JSON input): "{\"type\":\"turn.completed\",\"usage\":{\"input_tok"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := d.ParseOutput(tc.out, &backend.Request{})
			if res.Text != wantText || res.SessionID != adaptertest.CodexThread {
				t.Errorf("what could be read was lost: text %q, session %q", res.Text, res.SessionID)
			}
			if got := strings.Join(tc.errHas, "; "); res.OutputError != got {
				t.Errorf("output error %q\nwant %q", res.OutputError, got)
			}
			var streamed []string
			for _, e := range adaptertest.StreamAll(d, &backend.Request{}, tc.out) {
				if e.Kind == backend.EventError && strings.Contains(e.Text, "printed") {
					streamed = append(streamed, e.Text)
				}
			}
			if strings.Join(streamed, "; ") != res.OutputError {
				t.Errorf("streamed errors %q, want %q", streamed, res.OutputError)
			}
		})
	}
}
