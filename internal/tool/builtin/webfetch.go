package builtin

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"

	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed web_fetch.md
var webFetchDescription string

// userAgent names us honestly; some sites refuse Go's default agent string.
const userAgent = "albert-code/1.0 (+https://github.com/etalab-ia/albert-code)"

// WebFetchParams are the arguments of the web_fetch tool.
type WebFetchParams struct {
	URL      string `json:"url" jsonschema:"the http or https URL to fetch (https:// is assumed without a scheme)"`
	MaxBytes int64  `json:"max_bytes,omitempty" jsonschema:"download at most this many bytes (default 5 MiB)"`
	Timeout  int    `json:"timeout,omitempty" jsonschema:"timeout in seconds (default 30, max 120)"`
}

// WebFetch downloads a URL and returns it as text: HTML converted to Markdown, text
// formats as they are. Non-public addresses are refused unless Env allows them.
func WebFetch(env Env) tool.Tool {
	client := newFetchClient(env.AllowPrivateNetwork)
	return tool.New(tool.Def[WebFetchParams]{
		Info: tool.Info{Name: "web_fetch", Description: webFetchDescription, ReadOnly: true, Kind: tool.KindFetch},
		Run: func(ctx context.Context, call tool.Call, p WebFetchParams) (tool.Result, error) {
			return fetch(ctx, env, client, p)
		},
	})
}

func fetch(ctx context.Context, env Env, client *http.Client, p WebFetchParams) (tool.Result, error) {
	raw := strings.TrimSpace(p.URL)
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return tool.Errorf("%q is not a valid URL", p.URL), nil
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return tool.Errorf("only http and https URLs can be fetched, not %s", u.Scheme), nil
	}
	if p.MaxBytes < 0 || p.Timeout < 0 {
		return tool.Errorf("max_bytes and timeout must be positive"), nil
	}
	limit := env.fetchMaxBytes()
	if p.MaxBytes > 0 {
		limit = min(p.MaxBytes, limit)
	}
	timeout := orDuration(env.FetchTimeout, DefaultFetchTimeout)
	if p.Timeout > 0 {
		timeout = min(time.Duration(p.Timeout)*time.Second, orDuration(env.FetchMaxTimeout, DefaultFetchMaxTimeout))
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return tool.Errorf("%q is not a valid URL: %v", p.URL, err), nil
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		return fetchError(ctx, u, timeout, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return fetchError(ctx, u, timeout, err)
	}
	cut := int64(len(body)) > limit
	if cut {
		body = body[:limit]
	}

	final := resp.Request.URL.String()
	ctype := resp.Header.Get("Content-Type")
	header := fmt.Sprintf("URL: %s\nStatus: %s\nContent-Type: %s\n\n", final, resp.Status, ctype)
	if resp.StatusCode >= 400 {
		snippet, _ := tool.Cap(string(body), 2000)
		return tool.Errorf("%sthe server answered %s; the page was not fetched\n%s", header, resp.Status, snippet), nil
	}
	text, ok := asText(ctype, body, final)
	if !ok {
		return tool.Text(fmt.Sprintf("%s(%s content, %d bytes: not text, not shown)", header, orString(ctype, "unknown"), len(body))), nil
	}
	res := tool.Result{}
	res.Output, res.Truncated = tool.Cap(text, env.fetchOutputBytes())
	res.Output = header + res.Output
	if cut {
		res.Truncated = true
		res.Output += fmt.Sprintf("\n[download stopped at %d bytes]\n", limit)
	}
	return res, nil
}

// asText turns a body into what the model reads, or reports it is not text.
func asText(ctype string, body []byte, base string) (string, bool) {
	media, _, _ := mime.ParseMediaType(ctype)
	if media == "" {
		media = http.DetectContentType(body)
		media, _, _ = mime.ParseMediaType(media)
	}
	switch {
	case media == "text/html" || media == "application/xhtml+xml":
		md, err := htmltomarkdown.ConvertString(string(body), converter.WithDomain(base))
		if err != nil {
			return string(body), true // raw HTML is still readable
		}
		return md, true
	case strings.HasPrefix(media, "text/"),
		media == "application/json", strings.HasSuffix(media, "+json"),
		media == "application/xml", strings.HasSuffix(media, "+xml"),
		media == "application/javascript", media == "application/x-yaml", media == "application/yaml",
		media == "application/toml":
		return strings.ToValidUTF8(string(body), "\uFFFD"), true
	}
	return "", false
}

// fetchError explains a failed request to the model; only a cancelled turn is an
// infrastructure error.
func fetchError(ctx context.Context, u *url.URL, timeout time.Duration, err error) (tool.Result, error) {
	var refused *refusedAddress
	switch {
	case errors.As(err, &refused):
		return tool.Errorf("refused to fetch %s: %v; only public internet addresses can be fetched", u, refused), nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return tool.Errorf("fetching %s timed out after %s", u, timeout), nil
	case ctx.Err() != nil:
		return tool.Result{}, fmt.Errorf("fetch %s: %w", u, err)
	}
	return tool.Errorf("could not fetch %s: %v", u, err), nil
}

func orString(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
