package agenttool

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/etalab-ia/albert-code/internal/graph/compact"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// answer is what the model reads: the engine's answer, how many items it had when
// some are left out, and what refreshing the index took.
type answer struct {
	*query.Answer
	ItemsTotal int        `json:"items_total,omitempty"`
	Note       string     `json:"note,omitempty"`
	NextSteps  []NextStep `json:"next_steps,omitempty"`
	Index      Refresh    `json:"index"`
}

// render encodes a, in shape and with its hints, as compact JSON within max bytes:
// when the whole answer does not fit, it keeps the longest prefix of the items
// that does (the engine sorts them by file and line, or by hop for impact) and
// says how many there were. It reports whether anything was left out.
func render(a *query.Answer, r Refresh, max int, shape compact.Shape, steps []NextStep) (string, bool) {
	all := a.Items
	if all == nil {
		all = []query.Item{}
	}
	encode := func(n int) string {
		cut := *a
		cut.Items = all[:n]
		out := answer{Answer: &cut, Index: r, NextSteps: steps}
		if n < len(all) {
			out.ItemsTotal = len(all)
			out.Note = fmt.Sprintf("only the first %d of %d items fit; ask a narrower question (a qualified name, a smaller depth), or for detail ids", n, len(all))
		}
		b, err := json.Marshal(shape.Apply(out))
		if err != nil {
			// Strings, numbers and slices of them: Marshal cannot fail.
			panic(err)
		}
		return string(b)
	}
	if s := encode(len(all)); len(s) <= max {
		return s, false
	}
	n := sort.Search(len(all), func(n int) bool { return len(encode(n+1)) > max })
	s := encode(n)
	if len(s) > max {
		// Even without items the answer is too long (many targets, a long doc):
		// cut the text, which the marker says.
		s, _ = tool.Cap(s, max)
	}
	return s, true
}

// unknownSymbol is the model-visible error for a symbol no definition matches.
func unknownSymbol(e *query.UnknownSymbolError, r Refresh) tool.Result {
	dym := e.DidYouMean
	if dym == nil {
		dym = []string{}
	}
	b, err := json.Marshal(struct {
		Error      string   `json:"error"`
		Symbol     string   `json:"symbol"`
		DidYouMean []string `json:"did_you_mean"`
		Index      Refresh  `json:"index"`
	}{e.Error(), e.Symbol, dym, r})
	if err != nil {
		panic(err)
	}
	return tool.Result{Output: string(b), IsError: true}
}
