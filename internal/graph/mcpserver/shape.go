package mcpserver

import "github.com/etalab-ia/albert-code/internal/graph/compact"

// ShapeParams choose how compact an answer is, for agents that count tokens
// (package compact).
type ShapeParams struct {
	Detail string `json:"detail,omitempty" jsonschema:"full (default) or ids: every item list becomes its items' qualified names"`
	Format string `json:"format,omitempty" jsonschema:"json (default) or tabular: every item list becomes one string, a header line of column names then one tab-separated line per item"`
}

func (p ShapeParams) shape() compact.Shape { return compact.Shape{Detail: p.Detail, Format: p.Format} }

func (p ShapeParams) check() error { return p.shape().Check() }

func (p ShapeParams) compact() bool { return p.shape().Compact() }

func (p ShapeParams) apply(out any) any { return p.shape().Apply(out) }

// shaped wraps a page renderer so that each page it renders has this shape.
func (p ShapeParams) shaped(render func(n int) any) func(n int) any {
	if !p.compact() {
		return render
	}
	return func(n int) any { return p.apply(render(n)) }
}
