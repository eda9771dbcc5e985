package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxResponseChars is the most a tool response may take on the wire: the peer's
// MAX_RESPONSE_CHARS, Claude Code's MAX_MCP_OUTPUT_TOKENS = 25,000 × 4 characters a
// token. We count UTF-8 bytes, never fewer than the UTF-16 units a host counts.
const MaxResponseChars = 100_000

// envelopeReserve is what the JSON-RPC envelope around a result may add
// ({"jsonrpc":"2.0","id":…,"result":…} and the SDK's _meta). Judgement: ten times
// what we measured (about 40 bytes), so no page sits on the edge.
const envelopeReserve = 512

// Paging defaults. Judgement: 50 items of ~200 bytes fill a tenth of the budget,
// enough for most answers in one call; the budget still cuts a page short.
const (
	defaultLimit = 50
	maxLimit     = 1000
)

// Page is the part of every paged answer that says where the page sits: offset
// (absent on the first page) and total_count; the page's own count is its
// items' length.
type Page struct {
	Offset     int  `json:"offset,omitempty"`
	TotalCount int  `json:"total_count"`
	Truncated  bool `json:"truncated"`
	// NextOffset is where the next page starts; absent on the last page.
	NextOffset *int `json:"next_offset,omitempty"`
}

// PageParams are the paging inputs every paged tool takes.
type PageParams struct {
	Offset int `json:"offset,omitempty" jsonschema:"index of the first item to return (0 for the first page; pass the previous next_offset to continue)"`
	Limit  int `json:"limit,omitempty" jsonschema:"most items to return (default 50, at most 1000); the response budget may return fewer"`
	ShapeParams
}

func (p PageParams) bounds(total, def int) (offset, limit int) {
	offset, limit = max(p.Offset, 0), p.Limit
	if limit <= 0 {
		limit = def
	}
	return min(offset, total), min(limit, maxLimit)
}

// newPage describes n items returned from offset out of total.
func newPage(offset, n, total int) Page {
	p := Page{Offset: offset, TotalCount: total, Truncated: offset+n < total}
	if p.Truncated {
		next := offset + n
		p.NextOffset = &next
	}
	return p
}

// encode renders out as a tool result: the JSON as text content (what every
// client reads) and as structured content. It returns the result's size on the wire.
func encode(out any, isError bool) (*mcp.CallToolResult, int, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, 0, fmt.Errorf("encode tool result: %w", err)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b), IsError: isError}
	wire, err := json.Marshal(res)
	if err != nil {
		return nil, 0, fmt.Errorf("encode tool result: %w", err)
	}
	return res, len(wire) + envelopeReserve, nil
}

// tooLargeError reports a response that cannot fit the budget even empty
// or with a single item.
type tooLargeError struct {
	offset int
	budget int
}

func (e *tooLargeError) Error() string {
	if e.offset < 0 {
		return fmt.Sprintf("the answer does not fit the %d-character response budget even without items", e.budget)
	}
	return fmt.Sprintf("the item at offset %d alone exceeds the %d-character response budget; ask for less (fewer or shorter columns, substr())", e.offset, e.budget)
}

// fitPage returns the result of render(n) for the largest n ≤ want whose encoded
// size fits the budget. render must grow with n. At least one item is returned
// when want > 0: a page of none would send the agent back to the same offset.
// When not even one item fits, the page is tried again without its next_steps:
// hints are worth less than the answer.
func (h *handler) fitPage(offset, want int, render func(n int) any) (*mcp.CallToolResult, error) {
	res, err := h.fitPageAsIs(offset, want, render)
	var tooLarge *tooLargeError
	if errors.As(err, &tooLarge) {
		return h.fitPageAsIs(offset, want, func(n int) any { return withoutHints(render(n)) })
	}
	return res, err
}

// withoutHints is out with its next_steps left out.
func withoutHints(out any) any {
	b, err := json.Marshal(out)
	if err != nil {
		return out
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return out
	}
	delete(m, "next_steps")
	return m
}

func (h *handler) fitPageAsIs(offset, want int, render func(n int) any) (*mcp.CallToolResult, error) {
	budget := h.cfg.Budget
	res, size, err := encode(render(want), false)
	if err != nil || size <= budget {
		return res, err
	}
	lo, hi := 0, want // lo fits (checked below), hi does not
	if _, size, err = encode(render(0), false); err != nil {
		return nil, err
	} else if size > budget {
		return nil, &tooLargeError{offset: -1, budget: budget}
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		_, size, err := encode(render(mid), false)
		if err != nil {
			return nil, err
		}
		if size <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return nil, &tooLargeError{offset: offset, budget: budget}
	}
	res, _, err = encode(render(lo), false)
	return res, err
}

// fitWhole returns out as a result if it fits the budget, else an error.
func (h *handler) fitWhole(out any, isError bool) (*mcp.CallToolResult, error) {
	res, size, err := encode(out, isError)
	if err != nil {
		return nil, err
	}
	if size > h.cfg.Budget {
		return nil, &tooLargeError{offset: -1, budget: h.cfg.Budget}
	}
	return res, nil
}
