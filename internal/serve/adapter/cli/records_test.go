package cli

import "testing"

func TestRecordsAreCapped(t *testing.T) {
	t.Parallel()
	r := newRecorder(true, 40)
	for _, l := range []string{`{"type":"a"}`, `{"no":"type"}`, `plain text`, `{"type":"too big to fit in what is left"}`} {
		r.add([]byte(l))
	}
	if len(r.records) != 3 || r.cut != 1 || r.records[1].Type != "unknown" || r.records[2].Type != "raw_stdout" ||
		string(r.records[2].Event) != `"plain text"` {
		t.Errorf("records %+v cut %d", r.records, r.cut)
	}
	off := newRecorder(false, 0)
	off.add([]byte(`{"type":"a"}`))
	if len(off.records) != 0 {
		t.Error("records kept with event mode off")
	}
}
