package compact

import (
	"encoding/json"
	"strings"
	"testing"
)

type item struct {
	QName     string `json:"qualified_name"`
	Kind      string `json:"kind"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	MoreSites []int  `json:"more_sites,omitempty"`
	Why       string `json:"why,omitempty"`
}

type answer struct {
	Certainty string `json:"certainty"`
	Items     []item `json:"items"`
	Callers   struct {
		Items []item `json:"items"`
	} `json:"callers"`
	Freshness  map[string]any `json:"freshness"`
	TotalCount int            `json:"total_count"`
}

func sample() answer {
	a := answer{Certainty: "exact", TotalCount: 2,
		Items: []item{{QName: "p.A", Kind: "function", File: "p/a.go", Line: 3, MoreSites: []int{7, 9}},
			{QName: "p.B", Kind: "method", File: "p/b.go", Line: 4, Why: "a reason\twith a tab\nand a line"}},
		Freshness: map[string]any{"status": "stale", "dirty_count": 3, "dirty": []string{"x.go"}, "head": "abc"}}
	a.Callers.Items = []item{{QName: "p.C", Kind: "function", File: "p/c.go", Line: 1}}
	return a
}

func encode(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestApply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		shape Shape
		want  string
	}{
		{Shape{}, encode(t, sample())},
		{Shape{Detail: "full", Format: "json"}, encode(t, sample())},
		{Shape{Detail: "ids"}, `{"callers":{"items":["p.C"]},"certainty":"exact","freshness":{"dirty_count":3,"status":"stale"},"items":["p.A","p.B"],"total_count":2}`},
		{Shape{Format: "tabular"}, `{"callers":{"items":"qualified_name\tkind\tfile\tline\np.C\tfunction\tp/c.go\t1"},"certainty":"exact","freshness":{"dirty_count":3,"status":"stale"},` +
			`"items":"qualified_name\tkind\tfile\tline\tmore_sites\twhy\np.A\tfunction\tp/a.go\t3\t7,9\t\np.B\tmethod\tp/b.go\t4\t\ta reason with a tab and a line","total_count":2}`},
		{Shape{Detail: "ids", Format: "tabular"}, `{"callers":{"items":"qualified_name\np.C"},"certainty":"exact","freshness":{"dirty_count":3,"status":"stale"},"items":"qualified_name\np.A\np.B","total_count":2}`},
	} {
		if got := encode(t, tc.shape.Apply(sample())); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.shape, got, tc.want)
		}
	}
}

func TestApplyRows(t *testing.T) {
	t.Parallel()
	rows := map[string]any{"columns": []string{"qname", "line"}, "rows": [][]any{{"p.A", 3}, {"p.B", 4}}}
	if got := encode(t, Shape{Detail: "ids"}.Apply(rows)); got != `{"columns":["qname"],"rows":[["p.A"],["p.B"]]}` {
		t.Errorf("ids rows = %s", got)
	}
	if got := encode(t, Shape{Format: "tabular"}.Apply(rows)); got != `{"rows":"qname\tline\np.A\t3\np.B\t4"}` {
		t.Errorf("tabular rows = %s", got)
	}
}

// A list that is not of items (strings, objects without a qualified name) is
// left alone.
func TestApplyLeavesOtherLists(t *testing.T) {
	t.Parallel()
	in := map[string]any{"items": []string{"a"}, "members": []map[string]any{{"name": "x"}}}
	if got := encode(t, Shape{Format: "tabular"}.Apply(in)); got != `{"items":["a"],"members":[{"name":"x"}]}` {
		t.Errorf("got %s", got)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, ok := range []Shape{{}, {Detail: "ids", Format: "tabular"}, {Detail: "full", Format: "json"}} {
		if err := ok.Check(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
	for bad, says := range map[Shape]string{{Detail: "names"}: `detail "names": want full or ids`, {Format: "csv"}: `format "csv": want json or tabular`} {
		if err := bad.Check(); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}
