package mcpserver

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/query"
)

// ImpactParams is get_impact's input: the symbol, how deep to walk, and which
// hops to return.
type ImpactParams struct {
	Symbol  string `json:"symbol" jsonschema:"a qualified name (example.com/m/pkg.Type.Method) or a bare name (Method)"`
	Depth   int    `json:"depth,omitempty" jsonschema:"how many hops of dependents to walk (default 3, at most 10)"`
	FromHop int    `json:"from_hop,omitempty" jsonschema:"first hop to return (default 1); by_hop says how many nodes each hop holds"`
	ToHop   int    `json:"to_hop,omitempty" jsonschema:"last hop to return (default: the depth)"`
	// AllDefinitions: see SymbolParams.
	AllDefinitions bool `json:"all_definitions,omitempty" jsonschema:"when a bare name names several definitions, answer for all of them together instead of listing them to choose from"`
	PageParams
}

// ImpactOut is get_impact's answer: the dependents of the selected hops, paged,
// with the count at every hop so an agent can ask for the hops it needs.
type ImpactOut struct {
	AnswerOut
	Depth   int              `json:"depth"`
	Reached int              `json:"reached"`
	ByHop   []query.HopCount `json:"by_hop"`
	FromHop int              `json:"from_hop"`
	ToHop   int              `json:"to_hop"`
	// NextHop is the first hop after to_hop that has nodes.
	NextHop int `json:"next_hop,omitempty"`
	// WalkTruncated says the walk stopped at its node cap before the depth.
	WalkTruncated bool `json:"walk_truncated,omitempty"`
}

func (h *handler) impact(ctx context.Context, _ *mcp.CallToolRequest, in ImpactParams) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Symbol) == "" {
		return nil, nil, errors.New("symbol is empty: give a qualified or bare name")
	}
	if err := in.check(); err != nil {
		return nil, nil, err
	}
	st, err := h.open()
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	a, err := query.AskWith(ctx, st, "impact", in.Symbol, query.Options{Depth: in.Depth, FromHop: in.FromHop, ToHop: in.ToHop})
	var unknown *query.UnknownSymbolError
	if errors.As(err, &unknown) {
		res, err := h.fitWhole(unknownSymbol(unknown), true)
		return res, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	fresh := h.freshness(ctx, st)
	if res, done, err := h.ambiguous(a, in.AllDefinitions, fresh); done {
		return res, nil, err
	}
	all := items(a.Items, "")
	offset, limit := in.bounds(len(all), defaultLimit)
	res, err := h.fitPage(offset, min(limit, len(all)-offset), in.shaped(func(n int) any {
		page := newPage(offset, n, len(all))
		return ImpactOut{
			AnswerOut: AnswerOut{Question: a.Question, Symbol: a.Symbol, Certainty: a.Certainty, Why: a.Why,
				Targets: items(a.Targets, ""), Items: all[offset : offset+n], Page: page, Freshness: fresh,
				NextSteps: h.impactSteps(in, a.NextHop, all[offset:offset+n], page)},
			Depth: a.Depth, Reached: a.TotalCount, ByHop: a.ByHop, FromHop: a.FromHop, ToHop: a.ToHop,
			NextHop: a.NextHop, WalkTruncated: a.Truncated,
		}
	}))
	return res, nil, err
}
