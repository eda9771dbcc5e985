// Package albert reads an Albert account's limits and today's usage (GET
// /v1/me/info, GET /v1/me/usage) and turns them into quota reports and the 80 % /
// 95 % warnings every face shows at start-up.
package albert

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const (
	// requestTimeout bounds one call to /v1/me/*: the original's 10 s.
	requestTimeout = 10 * time.Second
	// pageSize is the largest page /v1/me/usage serves (more is a 422).
	pageSize = 100
	// maxPages bounds the paging: 10,000 calls in a day is ten times the EXP tier's
	// daily request quota, as the original's _USAGE_MAX_PAGES.
	maxPages = 100
)

// Client calls the account endpoints of one Albert base URL.
type Client struct {
	// BaseURL ends in /v1, as a provider's base_url.
	BaseURL string
	APIKey  string
	// HTTP is http.DefaultClient when nil.
	HTTP      *http.Client
	UserAgent string
}

// Info is GET /v1/me/info: who the key belongs to and the limits per router.
type Info struct {
	ID     string
	Name   string
	Email  string
	Limits []RouterLimit
}

// RouterLimit is one limit of one router; Value nil means unlimited.
type RouterLimit struct {
	Router int
	Type   string // rpm, rpd, tpm or tpd
	Value  *int64
}

// UsageEvent is one entry of GET /v1/me/usage.
type UsageEvent struct {
	Model            string
	Created          time.Time
	PromptTokens     int64
	CompletionTokens int64
}

// Info fetches the account's identity and limits.
func (c *Client) Info(ctx context.Context) (Info, error) {
	var doc struct {
		ID     json.RawMessage `json:"id"`
		Name   string          `json:"name"`
		Email  string          `json:"email"`
		Limits []struct {
			Router   *int   `json:"router"`
			RouterID *int   `json:"router_id"`
			Type     string `json:"type"`
			Value    *int64 `json:"value"`
		} `json:"limits"`
	}
	if err := c.get(ctx, "/me/info", nil, &doc); err != nil {
		return Info{}, err
	}
	info := Info{ID: strings.Trim(string(doc.ID), `"`), Name: doc.Name, Email: doc.Email}
	for _, l := range doc.Limits {
		r := RouterLimit{Type: l.Type, Value: l.Value}
		// Albert renamed "router" to "router_id"; both are read.
		if l.RouterID != nil {
			r.Router = *l.RouterID
		} else if l.Router != nil {
			r.Router = *l.Router
		}
		info.Limits = append(info.Limits, r)
	}
	return info, nil
}

// UsageSince pages GET /v1/me/usage from since (today's 00:00 UTC for the daily
// quota) until a short page.
func (c *Client) UsageSince(ctx context.Context, since time.Time) ([]UsageEvent, error) {
	var out []UsageEvent
	for page := 0; page < maxPages; page++ {
		q := url.Values{"limit": {strconv.Itoa(pageSize)}, "offset": {strconv.Itoa(page * pageSize)}, "start_time": {strconv.FormatInt(since.Unix(), 10)}}
		var doc struct {
			Data []struct {
				Model   string `json:"model"`
				Created int64  `json:"created"`
				Usage   struct {
					PromptTokens     int64 `json:"prompt_tokens"`
					CompletionTokens int64 `json:"completion_tokens"`
				} `json:"usage"`
			} `json:"data"`
		}
		if err := c.get(ctx, "/me/usage", q, &doc); err != nil {
			return nil, err
		}
		for _, d := range doc.Data {
			out = append(out, UsageEvent{Model: d.Model, Created: time.Unix(d.Created, 0).UTC(),
				PromptTokens: d.Usage.PromptTokens, CompletionTokens: d.Usage.CompletionTokens})
		}
		if len(doc.Data) < pageSize {
			return out, nil
		}
	}
	return out, nil
}

func (c *Client) get(ctx context.Context, path string, q url.Values, v any) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	u := strings.TrimRight(c.BaseURL, "/") + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("albert %s: %w", path, err)
	}
	req.Header.Set("Accept", "application/json")
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("albert %s: %w", u, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	if err != nil {
		return fmt.Errorf("albert %s: read answer: %w", u, err)
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("albert %s: HTTP %d: %s", u, res.StatusCode, detail(body))
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("albert %s: answer is not the expected JSON: %w", u, err)
	}
	return nil
}

// detail extracts FastAPI's {"detail": "..."} message, or the start of the body.
func detail(body []byte) string {
	var doc struct {
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &doc) == nil && len(doc.Detail) > 0 {
		var s string
		if json.Unmarshal(doc.Detail, &s) == nil {
			return s
		}
		return string(doc.Detail)
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
