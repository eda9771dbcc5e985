package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/query"
)

// CommunitiesParams is get_communities' input.
type CommunitiesParams struct {
	Symbol     string  `json:"symbol,omitempty" jsonschema:"a symbol whose community to show; empty lists the communities"`
	Resolution float64 `json:"resolution,omitempty" jsonschema:"Louvain resolution (default 1): higher gives smaller communities"`
	Members    int     `json:"members,omitempty" jsonschema:"members shown per community (default 10; 200 for a symbol's community)"`
	PageParams
}

// CommunitiesOut is get_communities' answer; the page is over communities.
type CommunitiesOut struct {
	query.PartitionSummary
	Communities []query.Community `json:"communities"`
	Page
	Freshness *Freshness `json:"freshness"`
	NextSteps []NextStep `json:"next_steps,omitempty"`
}

func (h *handler) communities(ctx context.Context, _ *mcp.CallToolRequest, in CommunitiesParams) (*mcp.CallToolResult, any, error) {
	if err := in.check(); err != nil {
		return nil, nil, err
	}
	st, err := h.open()
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	opt := query.CommunityOptions{Resolution: in.Resolution, Members: in.Members, Limit: 1 << 30}
	a, err := query.Communities(ctx, st, in.Symbol, opt)
	var unknown *query.UnknownSymbolError
	if errors.As(err, &unknown) {
		res, err := h.fitWhole(unknownSymbol(unknown), true)
		return res, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	fresh := h.freshness(ctx, st)
	all := a.Communities
	offset, limit := in.bounds(len(all), 20)
	res, err := h.fitPage(offset, min(limit, len(all)-offset), in.shaped(func(n int) any {
		page := newPage(offset, n, len(all))
		return CommunitiesOut{PartitionSummary: a.PartitionSummary, Communities: all[offset : offset+n],
			Page: page, Freshness: fresh, NextSteps: h.communitySteps(in, all[offset:offset+n], page)}
	}))
	return res, nil, err
}
