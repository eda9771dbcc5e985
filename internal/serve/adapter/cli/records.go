package cli

import (
	"encoding/json"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/supervisor"
)

// recorder keeps every stdout line as a native record for eventMode full, under the
// same byte cap as the stdout capture: a record past it is counted, not kept.
type recorder struct {
	on      bool
	limit   int
	used    int
	records []backend.Record
	cut     int
}

func newRecorder(on bool, limit int) *recorder {
	if limit <= 0 {
		limit = supervisor.DefaultStdoutLimit
	}
	return &recorder{on: on, limit: limit}
}

func (r *recorder) add(line []byte) {
	if !r.on || len(line) == 0 {
		return
	}
	if r.used+len(line) > r.limit {
		r.cut++
		return
	}
	r.used += len(line)
	var obj map[string]json.RawMessage
	switch {
	case line[0] == '{' && json.Unmarshal(line, &obj) == nil:
		typ := "unknown"
		var t string
		if json.Unmarshal(obj["type"], &t) == nil && t != "" {
			typ = t
		}
		r.records = append(r.records, backend.Record{Type: typ, Event: json.RawMessage(append([]byte(nil), line...))})
	default:
		// Not a JSON object: kept as a string, marked so clients can tell.
		raw, _ := json.Marshal(string(line))
		r.records = append(r.records, backend.Record{Type: "raw_stdout", Event: raw})
	}
}
