package builtin

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed web_search.md
var webSearchDescription string

const (
	defaultSearchResults = 8
	// maxSearchResults: past twenty, results are noise and cost context.
	maxSearchResults = 20
)

// SearchResult is one hit of a web search.
type SearchResult struct {
	Title   string
	URL     string
	Snippet string
}

// SearchBackend answers web searches. SearXNG is the one shipped; a backend returns
// at most max results, best first.
type SearchBackend interface {
	Search(ctx context.Context, query string, max int) ([]SearchResult, error)
}

// WebSearchParams are the arguments of the web_search tool.
type WebSearchParams struct {
	Query      string `json:"query" jsonschema:"what to search for, as you would type it in a search engine"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"how many results to return (default 8, max 20)"`
}

// WebSearch searches the web through backend; a nil backend tells the model (and,
// through it, the user) how to configure one.
func WebSearch(backend SearchBackend) tool.Tool {
	return tool.New(tool.Def[WebSearchParams]{
		Info: tool.Info{Name: "web_search", Description: webSearchDescription, ReadOnly: true, Kind: tool.KindFetch},
		Run: func(ctx context.Context, call tool.Call, p WebSearchParams) (tool.Result, error) {
			if backend == nil {
				return tool.Errorf("web_search has no backend: set [web_search] base_url in the config (or ALBERT_CODE_WEB_SEARCH_URL) to a SearXNG instance with the JSON format enabled"), nil
			}
			if strings.TrimSpace(p.Query) == "" {
				return tool.Errorf("query is empty"), nil
			}
			if p.MaxResults < 0 {
				return tool.Errorf("max_results must be positive"), nil
			}
			n := min(orInt(p.MaxResults, defaultSearchResults), maxSearchResults)
			results, err := backend.Search(ctx, p.Query, n)
			if err != nil {
				if ctx.Err() != nil {
					return tool.Result{}, fmt.Errorf("web search: %w", err)
				}
				// The backend is outside our control (down, rate-limited): the model can
				// carry on without it.
				return tool.Errorf("web search failed: %v", err), nil
			}
			if len(results) == 0 {
				return tool.Text(fmt.Sprintf("No results for %q.", p.Query)), nil
			}
			var sb strings.Builder
			for i, r := range results[:min(len(results), n)] {
				fmt.Fprintf(&sb, "%d. %s\n   %s\n", i+1, r.Title, r.URL)
				if s := strings.Join(strings.Fields(r.Snippet), " "); s != "" {
					fmt.Fprintf(&sb, "   %s\n", s)
				}
			}
			return tool.Result{Output: sb.String(), Display: results}, nil
		},
	})
}
