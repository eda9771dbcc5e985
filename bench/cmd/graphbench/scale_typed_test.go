package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// graph index --json's report gives the whole build's time and the typed
// pass's phases; the split shows each against the load floor, and a report
// without a go phase (the module did not load) is refused rather than
// measured as a typed index.
func TestTypedSplit(t *testing.T) {
	t.Parallel()
	out := []byte(`{"root":"/r","duration_ns":6000000000,"phases_ms":{"scan":100,"go":2400,"write":1500,"resolve":400,"finish":100}}`)
	tr, err := parseTypedRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.typedPassMS(); got != 4500 {
		t.Errorf("typed pass = %v ms, want 4500", got)
	}
	rep := &scaleReport{Floor: measurement{Wall: 2 * time.Second}, TypedRun: tr}
	var w bytes.Buffer
	printTypedSplit(&w, rep)
	for _, row := range []string{
		"| whole build (both passes, in-process) | 6000 | 3.00× |",
		"| first pass | 1500 | 0.75× |",
		"| typed pass | 4500 | 2.25× |",
		"| typed pass: go (load, facts, snapshot) | 2400 | 1.20× |",
		"| typed pass: write | 1500 | 0.75× |",
	} {
		if !strings.Contains(w.String(), row) {
			t.Errorf("split lacks %q:\n%s", row, w.String())
		}
	}
	if strings.Index(w.String(), "go (load") > strings.Index(w.String(), "typed pass: write") {
		t.Errorf("phases are not largest first:\n%s", w.String())
	}
	if _, err := parseTypedRun([]byte(`{"duration_ns":5,"phases_ms":{"scan":1}}`)); err == nil {
		t.Error("a report without a go phase was accepted")
	}
	if _, err := parseTypedRun([]byte(`albert-code: not json`)); err == nil {
		t.Error("a report that is not JSON was accepted")
	}
}
