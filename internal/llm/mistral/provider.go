// Package mistral is the llm.Provider for Mistral's chat API. Its wire is
// OpenAI's Chat Completions with stricter rules, so it reuses openaicompat and
// adapts each request and answer in an http.RoundTripper: tool call ids of exactly
// nine letters or digits, prefix on a trailing assistant message, no
// stream_options, "any" for a required tool, thinking chunks and object arguments
// in the stream, and its nested error bodies.
package mistral

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/openaicompat"
	"github.com/etalab-ia/albert-code/internal/llm/sse"
)

// DefaultBaseURL is Mistral's API root.
const DefaultBaseURL = "https://api.mistral.ai/v1"

// Options configure a Provider.
type Options struct {
	// BaseURL is the API root; empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token. The environment is never read.
	APIKey       string
	ExtraHeaders map[string]string
	UserAgent    string
	// HTTPClient sends the requests; nil uses a shared transport. Its transport is
	// wrapped, never changed.
	HTTPClient *http.Client
	// Timeout is the longest the server may stay silent; see openaicompat.Options.
	Timeout time.Duration
}

// Provider streams chat completions from Mistral. It is safe for concurrent use.
type Provider struct {
	inner *openaicompat.Provider
	// name is the endpoint, password redacted, for error messages.
	name string
}

// New returns a Provider for opts.
func New(opts Options) *Provider {
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL
	}
	base := http.RoundTripper(sse.Transport())
	client := &http.Client{}
	if opts.HTTPClient != nil {
		*client = *opts.HTTPClient
		if client.Transport != nil {
			base = client.Transport
		} else {
			base = http.DefaultTransport
		}
	}
	client.Transport = &transport{base: base}
	name := strings.TrimRight(opts.BaseURL, "/") + "/chat/completions"
	if u, err := url.Parse(name); err == nil {
		name = u.Redacted()
	}
	return &Provider{name: name, inner: openaicompat.New(openaicompat.Options{
		BaseURL:      opts.BaseURL,
		APIKey:       opts.APIKey,
		ExtraHeaders: opts.ExtraHeaders,
		UserAgent:    opts.UserAgent,
		HTTPClient:   client,
		Timeout:      opts.Timeout,
	})}
}

// Stream sends req and streams the answer; see llm.Provider. Mistral's own
// finish reasons are mapped onto OpenAI's: model_length is length, and error (the
// model failed mid-answer) is a server error worth a retry.
func (p *Provider) Stream(ctx context.Context, req llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
	resp, err := p.inner.Stream(ctx, req, emit)
	if err != nil {
		return nil, err
	}
	switch resp.FinishReason {
	case "model_length":
		resp.FinishReason = "length"
	case "error":
		return nil, &llm.APIError{Status: http.StatusBadGateway,
			Message: `the model stopped with finish_reason "error"`, URL: p.name}
	}
	return resp, nil
}
