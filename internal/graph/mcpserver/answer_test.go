package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/query"
)

// What an item repeats is left out, and repeated sites of one item become one
// item; what differs is kept.
func TestItemsLeaveOutWhatRepeats(t *testing.T) {
	t.Parallel()
	in := []query.Item{
		// run calls the symbol three times, the third through a name guess.
		{QName: "p.run", Kind: "function", File: "p/run.go", Line: 10, SiteFile: "p/run.go", SiteLine: 12, Relation: "calls", Confidence: 1, Resolution: "types"},
		{QName: "p.run", Kind: "function", File: "p/run.go", Line: 10, SiteFile: "p/run.go", SiteLine: 15, Relation: "calls", Confidence: 1, Resolution: "types"},
		{QName: "p.run", Kind: "function", File: "p/run.go", Line: 10, SiteFile: "p/run.go", SiteLine: 18, Relation: "calls", Confidence: 0.5, Resolution: "name"},
		// A reference, not a call: its relation stays.
		{QName: "p.table", Kind: "variable", File: "p/t.go", Line: 3, SiteFile: "p/t.go", SiteLine: 4, Relation: "references", Confidence: 1, Resolution: "types"},
		// A site in another file than the item's: site_file stays.
		{QName: "p.init@x.go", Kind: "function", File: "p/x.go", Line: 1, SiteFile: "p/y.go", SiteLine: 1, Relation: "calls", Confidence: 1, Resolution: "types"},
	}
	got, err := json.Marshal(items(in, "calls"))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"qualified_name":"p.run","kind":"function","file":"p/run.go","line":10,"site_line":12,"more_sites":[15]},` +
		`{"qualified_name":"p.run","kind":"function","file":"p/run.go","line":10,"site_line":18,"confidence":0.5,"resolution":"name"},` +
		`{"qualified_name":"p.table","kind":"variable","file":"p/t.go","line":3,"site_line":4,"relation":"references"},` +
		`{"qualified_name":"p.init@x.go","kind":"function","file":"p/x.go","line":1,"site_file":"p/y.go","site_line":1}]`
	if string(got) != want {
		t.Errorf("items =\n%s\nwant\n%s", got, want)
	}

	// An implements edge's site is the type's own declaration: no site at all.
	impl, _ := json.Marshal(items([]query.Item{{QName: "p.Square", Kind: "struct", File: "p/sq.go", Line: 4,
		SiteFile: "p/sq.go", SiteLine: 4, Relation: "implements", Confidence: 1, Resolution: "types"}}, "implements"))
	if string(impl) != `[{"qualified_name":"p.Square","kind":"struct","file":"p/sq.go","line":4}]` {
		t.Errorf("implements item = %s", impl)
	}
}

// A first page says no offset; a fresh index says no indexed_at; a later page
// says where it starts.
func TestAnswerEnvelopeIsCompact(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, Config{Root: indexedFixture(t), Profile: Full, Version: "test"})
	first := resultText(call(t, cs, "find_implementations", map[string]any{"symbol": "example.com/fixture/shapes.Shape", "limit": 1}, nil))
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(first), &top); err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"offset", "returned_count"} {
		if _, ok := top[absent]; ok {
			t.Errorf("first page has %s: %s", absent, first)
		}
	}
	if strings.Contains(first, `"indexed_at"`) {
		t.Errorf("first page has indexed_at: %s", first)
	}
	if !strings.Contains(first, `"status":"fresh"`) || !strings.Contains(first, `"next_offset":1`) {
		t.Errorf("first page lacks freshness or next_offset: %s", first)
	}
	second := resultText(call(t, cs, "find_implementations", map[string]any{"symbol": "example.com/fixture/shapes.Shape", "limit": 1, "offset": 1}, nil))
	if !strings.Contains(second, `"offset":1`) {
		t.Errorf("second page does not say where it starts: %s", second)
	}
}
