package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// searxngTimeout bounds one search: metasearch fans out to several engines and
// SearXNG's own default per-engine timeout is a few seconds.
const searxngTimeout = 20 * time.Second

// SearXNG is a SearchBackend speaking the JSON API of a SearXNG instance
// (GET {BaseURL}/search?q=…&format=json). The instance must list "json" under
// search.formats in its settings.yml, or it answers 403.
type SearXNG struct {
	// BaseURL is the instance root, e.g. http://localhost:8888.
	BaseURL string
	// Client defaults to a client with searxngTimeout. The instance is configured by
	// the user, so it may be on a private network: no address guard applies.
	Client *http.Client
}

type searxngResponse struct {
	Results []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	} `json:"results"`
}

// Search runs query on the instance and returns up to max results.
func (s *SearXNG) Search(ctx context.Context, query string, max int) ([]SearchResult, error) {
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: searxngTimeout}
	}
	endpoint := strings.TrimRight(s.BaseURL, "/") + "/search?" + url.Values{"q": {query}, "format": {"json"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return nil, fmt.Errorf("searxng request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("searxng at %s: %w", s.BaseURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("searxng at %s: read answer: %w", s.BaseURL, err)
	}
	switch {
	case resp.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("searxng at %s answered 403: enable the json format (search.formats) in its settings.yml", s.BaseURL)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("searxng at %s answered %s", s.BaseURL, resp.Status)
	}
	var parsed searxngResponse
	if err := json.Unmarshal(body, &parsed); err != nil {
		return nil, fmt.Errorf("searxng at %s: answer is not the JSON API's: %w", s.BaseURL, err)
	}
	out := make([]SearchResult, 0, min(len(parsed.Results), max))
	for _, r := range parsed.Results {
		if len(out) == max {
			break
		}
		out = append(out, SearchResult{Title: r.Title, URL: r.URL, Snippet: r.Content})
	}
	return out, nil
}
