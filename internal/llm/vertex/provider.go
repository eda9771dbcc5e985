// Package vertex is the llm.Provider for Google's Gemini models, written by hand
// over net/http as openaicompat is (the genai SDK cost tens of megabytes and
// milliseconds at every start). Retries belong to internal/llm/retry. It speaks to
// the Gemini API with an API key, or to Vertex AI with a bearer token or
// Application Default Credentials, and sends each function call back with its
// thought signature, as Gemini 3 requires.
package vertex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/sse"
)

// DefaultIdleTimeout is how long the server may stay silent when Options.Timeout is
// zero: the same judgement as openaicompat.DefaultIdleTimeout.
const DefaultIdleTimeout = 5 * time.Minute

// Options configure a Provider. APIKey selects the Gemini API; Project and
// Location select Vertex AI.
type Options struct {
	// BaseURL is the API root; empty means the backend's default
	// (generativelanguage.googleapis.com, or LOCATION-aiplatform.googleapis.com).
	BaseURL string
	// APIKey is the Gemini API key, sent as x-goog-api-key. The environment is
	// never read for it.
	APIKey string
	// Project and Location name the Vertex AI project and region.
	Project, Location string
	// AccessToken is a Vertex AI OAuth bearer token; empty uses Application
	// Default Credentials.
	AccessToken  string
	ExtraHeaders map[string]string
	UserAgent    string
	// HTTPClient sends the requests; nil uses a shared transport. For Vertex AI
	// without AccessToken, a client given here is trusted to authenticate;
	// without one, Application Default Credentials are used.
	HTTPClient *http.Client
	// Timeout is the longest the server may stay silent, before answering and
	// between two chunks. Zero means DefaultIdleTimeout; negative means no limit.
	Timeout time.Duration
}

// Provider streams generateContent answers. It is safe for concurrent use.
type Provider struct {
	opts   Options
	client *http.Client
	// root is the API root; name is the same, password redacted, for errors.
	root, name string
	header     http.Header
	now        func() time.Time

	// adc is set for Vertex AI with Application Default Credentials. The file is
	// read on the first call, and again after a failure: a user who runs
	// `gcloud auth application-default login` then need not restart a server.
	adc    bool
	adcMu  sync.Mutex
	tokens *tokenSource
}

// New returns a Provider for opts. It never fails: missing credentials show up as
// an error on the first call.
func New(opts Options) *Provider {
	if opts.Timeout == 0 {
		opts.Timeout = DefaultIdleTimeout
	}
	root := strings.TrimRight(opts.BaseURL, "/")
	switch {
	case root != "":
	case opts.APIKey != "":
		root = "https://generativelanguage.googleapis.com"
	case opts.Location == "global":
		root = "https://aiplatform.googleapis.com"
	default:
		root = fmt.Sprintf("https://%s-aiplatform.googleapis.com", opts.Location)
	}
	name := root
	if u, err := url.Parse(root); err == nil {
		name = u.Redacted()
	}
	client := opts.HTTPClient
	if client == nil {
		client = &http.Client{Transport: sse.Transport()}
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	if opts.UserAgent != "" {
		h.Set("User-Agent", opts.UserAgent)
	}
	for k, v := range opts.ExtraHeaders {
		h.Set(k, v)
	}
	p := &Provider{opts: opts, client: client, root: root, name: name, header: h, now: time.Now}
	switch {
	case opts.APIKey != "":
		h.Set("X-Goog-Api-Key", opts.APIKey)
	case opts.AccessToken != "":
		h.Set("Authorization", "Bearer "+opts.AccessToken)
	default:
		p.adc = opts.HTTPClient == nil
	}
	return p
}

// endpoint is the streamGenerateContent URL for model.
func (p *Provider) endpoint(model string) (string, error) {
	model = strings.TrimPrefix(model, "models/")
	switch {
	case p.opts.APIKey != "":
		return p.root + "/v1beta/models/" + model + ":streamGenerateContent?alt=sse", nil
	case p.opts.Project == "" || p.opts.Location == "":
		return "", errors.New("no credentials: set an API key for the Gemini API, or a project and location for Vertex AI")
	}
	return fmt.Sprintf("%s/v1beta1/projects/%s/locations/%s/publishers/google/models/%s:streamGenerateContent?alt=sse",
		p.root, url.PathEscape(p.opts.Project), url.PathEscape(p.opts.Location), model), nil
}

// authHeader is the header of one call: with Application Default Credentials, it
// carries a token fetched (or reused) now.
func (p *Provider) authHeader(ctx context.Context) (http.Header, error) {
	if !p.adc {
		return p.header, nil
	}
	p.adcMu.Lock()
	if p.tokens == nil {
		creds, err := findCredentials()
		if err != nil {
			p.adcMu.Unlock()
			return nil, err
		}
		p.tokens = &tokenSource{creds: creds, client: p.client, now: p.now}
	}
	tokens := p.tokens
	p.adcMu.Unlock()
	token, err := tokens.get(ctx)
	if err != nil {
		return nil, err
	}
	h := p.header.Clone()
	h.Set("Authorization", "Bearer "+token)
	return h, nil
}

// Stream sends req and streams the answer; see llm.Provider.
func (p *Provider) Stream(ctx context.Context, req llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
	if emit == nil {
		emit = func(llm.StreamEvent) {}
	}
	wire, err := buildRequest(req)
	if err != nil {
		return nil, fmt.Errorf("build request for %s: %w", p.name, err)
	}
	body, err := json.Marshal(wire)
	if err != nil {
		return nil, fmt.Errorf("build request for %s: %w", p.name, err)
	}
	endpoint, err := p.endpoint(req.Model)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	header, err := p.authHeader(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	call := sse.Call{Client: p.client, URL: endpoint, Name: p.name, Header: header, Body: body,
		Timeout: p.opts.Timeout, APIError: p.httpError}
	acc := newAssembler(req.Model, emit)
	chunks, err := call.Run(ctx, func(data []byte) error {
		var c chunk
		if err := json.Unmarshal(data, &c); err != nil {
			return sse.Unreachable(p.name, fmt.Errorf("bad stream chunk: %w", err))
		}
		if c.Error != nil {
			e := p.apiError(c.Error, data)
			e.Log()
			return e
		}
		return p.withURL(acc.add(&c))
	})
	if err != nil {
		return nil, err
	}
	if !acc.finished() {
		if chunks == 0 {
			return nil, sse.Unreachable(p.name, errors.New("answer has no stream events"))
		}
		return nil, sse.Unreachable(p.name, errors.New("stream ended before a finishReason"))
	}
	return acc.response(), nil
}

func (p *Provider) withURL(err error) error {
	var apiErr *llm.APIError
	if errors.As(err, &apiErr) {
		apiErr.URL = p.name
	}
	return err
}
