package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// rawInError is how much of an unreadable line an error quotes: enough to see
// what it was, not a megabyte of it.
const rawInError = 300

// quoteRaw quotes an agent's output line for an error, cut to rawInError bytes.
func quoteRaw(line []byte) string {
	if len(line) > rawInError {
		return fmt.Sprintf("%q... (%d bytes)", line[:rawInError], len(line))
	}
	return fmt.Sprintf("%q", line)
}

// ReadRecord decodes one line of an agent's JSONL output into v, or says why it
// cannot, quoting the line: it is not a JSON object (a banner, a warning, a line
// cut by the output cap), or an object that does not decode (a record cut short, a
// field of another type).
func ReadRecord(agent string, line []byte, v any) error {
	if !isObject(line) {
		return fmt.Errorf("%s printed a line that is not a JSON record: %s", agent, quoteRaw(line))
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("%s printed a record that cannot be read (%v): %s", agent, err, quoteRaw(line))
	}
	return nil
}

// RecordTypes notices record types an adapter was not written for: a newer CLI's
// record would otherwise be skipped unseen. Each new type is reported once per run.
type RecordTypes struct {
	agent, tested string // "codex", "codex 0.169.0"
	known         map[string]bool
	reported      map[string]bool
}

func NewRecordTypes(agent, tested string, known ...string) *RecordTypes {
	t := &RecordTypes{agent: agent, tested: tested, known: map[string]bool{}, reported: map[string]bool{}}
	for _, k := range known {
		t.known[k] = true
	}
	return t
}

// Check returns the error for a record of an unknown type seen for the first time.
func (t *RecordTypes) Check(typ string, line []byte) error {
	if t.known[typ] || t.reported[typ] {
		return nil
	}
	t.reported[typ] = true
	return fmt.Errorf("%s printed a record of a type this adapter does not read (%q; %s was tested), skipped: %s",
		t.agent, typ, t.tested, quoteRaw(line))
}

// Problems collects what of a run's output could not be read, for Result.OutputError.
type Problems []string

// Add notes err, if any, and returns the error event a stream sends for it.
func (p *Problems) Add(err error) []backend.Event {
	if err == nil {
		return nil
	}
	*p = append(*p, err.Error())
	return []backend.Event{{Kind: backend.EventError, Text: err.Error()}}
}

func (p Problems) String() string { return strings.Join(p, "; ") }
