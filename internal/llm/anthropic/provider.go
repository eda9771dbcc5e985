// Package anthropic is the llm.Provider for Anthropic's Messages API, written by
// hand over net/http as openaicompat is (the SDK cost 20 ms at every start and
// tens of megabytes of binary). Retries belong to internal/llm/retry. It keeps
// thinking blocks and their signatures in the canonical messages, so that they go
// back to the model unchanged on the next turn, as the API requires during tool use.
package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/sse"
)

// DefaultBaseURL is the API root; requests go to BaseURL + "/v1/messages".
const DefaultBaseURL = "https://api.anthropic.com"

// APIVersion is the anthropic-version header: the stable version every client
// and proxy understands, whose stream events this package reads.
const APIVersion = "2023-06-01"

// DefaultIdleTimeout is how long the server may stay silent when Options.Timeout is
// zero: the same judgement as openaicompat.DefaultIdleTimeout.
const DefaultIdleTimeout = 5 * time.Minute

// DefaultMaxTokens caps an answer when the request does not. The API requires a cap;
// by judgement 16384 lets the model write a large file in one tool call and is
// within every current model's output limit.
const DefaultMaxTokens = 16384

// Options configure a Provider.
type Options struct {
	// BaseURL is the API root; empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as x-api-key. The environment is never read.
	APIKey string
	// ExtraHeaders are added to every request, such as anthropic-beta.
	ExtraHeaders map[string]string
	// UserAgent is the User-Agent header when set.
	UserAgent string
	// HTTPClient sends the requests; nil uses a shared transport.
	HTTPClient *http.Client
	// Timeout is the longest the server may stay silent, before answering and
	// between two events. Zero means DefaultIdleTimeout; negative means no limit.
	Timeout time.Duration
	// MaxTokens caps answers when the request does not; zero means DefaultMaxTokens.
	MaxTokens int
}

// Provider streams messages from the Anthropic API. It is safe for concurrent use.
type Provider struct {
	opts     Options
	client   *http.Client
	endpoint string
	// name is the endpoint, password redacted, for error messages.
	name   string
	header http.Header
	now    func() time.Time
}

// New returns a Provider for opts. It never fails: a bad BaseURL shows up as an
// error naming it on the first call.
func New(opts Options) *Provider {
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultIdleTimeout
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = DefaultMaxTokens
	}
	client := opts.HTTPClient
	if client == nil {
		client = &http.Client{Transport: sse.Transport()}
	}
	endpoint := strings.TrimRight(opts.BaseURL, "/") + "/v1/messages"
	name := endpoint
	if u, err := url.Parse(endpoint); err == nil {
		name = u.Redacted()
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	h.Set("Anthropic-Version", APIVersion)
	if opts.APIKey != "" {
		h.Set("X-Api-Key", opts.APIKey)
	}
	if opts.UserAgent != "" {
		h.Set("User-Agent", opts.UserAgent)
	}
	for k, v := range opts.ExtraHeaders {
		h.Set(k, v)
	}
	return &Provider{opts: opts, client: client, endpoint: endpoint, name: name, header: h, now: time.Now}
}

// Stream sends req and streams the answer; see llm.Provider.
func (p *Provider) Stream(ctx context.Context, req llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
	if emit == nil {
		emit = func(llm.StreamEvent) {}
	}
	params, err := p.buildParams(req)
	if err != nil {
		return nil, fmt.Errorf("build request for %s: %w", p.name, err)
	}
	body, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("build request for %s: %w", p.name, err)
	}
	call := sse.Call{Client: p.client, URL: p.endpoint, Name: p.name, Header: p.header, Body: body,
		Timeout: p.opts.Timeout, APIError: p.httpError}
	acc := newAssembler(req.Model, emit)
	events, err := call.Run(ctx, func(data []byte) error {
		var ev event
		if err := json.Unmarshal(data, &ev); err != nil {
			return sse.Unreachable(p.name, fmt.Errorf("bad stream event: %w", err))
		}
		if ev.Type == "error" {
			e := p.eventError(ev.Error, data)
			e.Log()
			return e
		}
		if err := acc.add(&ev); err != nil {
			return sse.Unreachable(p.name, err)
		}
		if acc.finished() {
			return sse.ErrDone
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !acc.finished() {
		if events == 0 {
			return nil, sse.Unreachable(p.name, errors.New("answer has no stream events"))
		}
		return nil, sse.Unreachable(p.name, errors.New("stream ended before message_stop"))
	}
	return acc.response(), nil
}
