package jsonkeys

import (
	"bytes"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, key, path string // key "" means no duplicate
	}{
		{`{"prompt":"a","workspace":"b"}`, "", ""},
		{`{"prompt":"a","prompt":"b"}`, "prompt", ""},
		{`{"prompt":"a","\u0070rompt":"b"}`, "prompt", ""},
		{`{"Prompt":"a","prompt":"b"}`, "", ""},
		{`{"env":{"A":"1","B":"2","A":"3"}}`, "A", "env"},
		{`{"messages":[{"role":"user"},{"role":"user","role":"system"}]}`, "role", "messages[1]"},
		{`{"a":[[{"x":1}],[{"y":1,"y":2}]]}`, "y", "a[1][0]"},
		{`{"a":{"b":{"c":1}},"d":{"b":{"c":2}}}`, "", ""},
		{`[{"k":1},{"k":2}]`, "", ""},
		{`[{"k":1,"k":2}]`, "k", "[0]"},
		{`{"a":{},"b":[],"a":null}`, "a", ""},
		{`"just a string"`, "", ""},
	}
	for _, tc := range tests {
		err := Find([]byte(tc.in))
		var de *DuplicateError
		switch {
		case tc.key == "" && err != nil:
			t.Errorf("%s: %v, want none", tc.in, err)
		case tc.key != "" && !errors.As(err, &de):
			t.Errorf("%s: %v, want key %q given twice", tc.in, err, tc.key)
		case tc.key != "" && (de.Key != tc.key || de.Path != tc.path):
			t.Errorf("%s: key %q at %q, want %q at %q", tc.in, de.Key, de.Path, tc.key, tc.path)
		}
	}
}

func TestFindRefusesWhatIsNotJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`{"a":`, `{"a" 1}`, `{1:2}`, `[1,]`} {
		var de *DuplicateError
		if err := Find([]byte(in)); err == nil || errors.As(err, &de) {
			t.Errorf("%s: %v, want a syntax error", in, err)
		}
	}
}

func TestMessageNamesKeyAndPlace(t *testing.T) {
	t.Parallel()
	err := Find([]byte(`{"messages":[{"role":"a","role":"b"}]}`))
	if err == nil || err.Error() != `key "role" is given twice in the object at messages[0]: send each key once` {
		t.Errorf("%v", err)
	}
}

// hasDuplicate is the reference the fuzz target compares with: a plain recursive
// descent over json.RawMessage, nothing shared with Find's iterative walk.
func hasDuplicate(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	switch raw[0] {
	case '{':
		dec := json.NewDecoder(bytes.NewReader(raw))
		if _, err := dec.Token(); err != nil {
			return false
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return false
			}
			key := tok.(string)
			if seen[key] {
				return true
			}
			seen[key] = true
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return false
			}
			if hasDuplicate(v) {
				return true
			}
		}
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return false
		}
		for _, it := range items {
			if hasDuplicate(it) {
				return true
			}
		}
	}
	return false
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{
		`{"prompt":"a","prompt":"b"}`, `{"a":{"b":1,"b":2}}`, `[{"x":[{"y":1,"y":1}]}]`,
		`{"a":"\u0061","\u0061":1}`, `{"":1,"":2}`, `{}`, `[]`, `null`, `{"a":[1,2,{"b":{}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Find(data) // must not panic, whatever data is
		if !json.Valid(data) {
			return
		}
		var de *DuplicateError
		got := errors.As(err, &de)
		if err != nil && !got {
			t.Fatalf("valid JSON %q: %v", data, err)
		}
		if want := hasDuplicate(data); got != want {
			t.Fatalf("%q: Find says duplicate %v (%v), the reference %v", data, got, err, want)
		}
	})
}

// TestDeepNestingCostsLinearMemory: encoding/json accepts 9,999 levels, and a
// path built for every level cost their square (150 MB for this 20 KB body).
func TestDeepNestingCostsLinearMemory(t *testing.T) {
	const depth = 9999
	doc := []byte(`{"prompt":` + strings.Repeat("[", depth-1) + `{"a":1,"a":2}` + strings.Repeat("]", depth-1) + `}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := Find(doc)
	runtime.ReadMemStats(&after)
	var de *DuplicateError
	if !errors.As(err, &de) || !strings.HasPrefix(de.Path, "prompt[0][0]") {
		t.Fatalf("Find = %v, want the duplicate a deep in prompt", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 20<<20 {
		t.Errorf("Find allocated %d MiB for a %d-byte body", alloc>>20, len(doc))
	}
}
