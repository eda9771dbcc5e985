// Package openaicompat is the llm.Provider for servers that speak OpenAI's Chat
// Completions API: Albert, OpenAI, Ollama, vLLM, llama.cpp. It speaks the wire
// format itself, with net/http, encoding/json and a small SSE reader: the official
// SDK cost 6 MB of binary, 4 ms of package init and 5 ms of marshalling per call
// (docs/benchmarks/agent-overhead.md) for the few fields we use. It never retries
// (internal/llm/retry does), reads the fields those servers add
// (reasoning_content, missing tool call indexes), and can recover tool calls that
// Qwen models write as XML text.
package openaicompat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/sse"
)

// DefaultIdleTimeout is how long a server may stay silent (before the headers, or
// between two stream chunks) when Options.Timeout is zero. By judgement: longer
// than the prefill of a 128k-token prompt on one busy GPU, short enough that a dead
// connection does not hang a headless run forever.
const DefaultIdleTimeout = 5 * time.Minute

// Options configure a Provider.
type Options struct {
	// BaseURL is the API root, such as https://albert.api.etalab.gouv.fr/v1;
	// requests go to BaseURL + "/chat/completions".
	BaseURL string
	// APIKey is sent as a bearer token; empty sends no Authorization header
	// (Ollama, llama.cpp). The environment is never read.
	APIKey string
	// ExtraHeaders are added to every request; they replace the provider's own
	// headers of the same name.
	ExtraHeaders map[string]string
	// UserAgent is sent as User-Agent, such as "albert-code/1.2.0"; empty sends
	// Go's default.
	UserAgent string
	// HTTPClient sends the requests; nil uses a transport shared by every Provider
	// (see sse.Transport). Its Timeout must be zero or longer than any
	// answer: it bounds the whole stream.
	HTTPClient *http.Client
	// XMLToolCalls turns on recovery of tool calls written as XML in the text
	// (vLLM serving Qwen; the seed's streaming_xml_tool_calls).
	XMLToolCalls bool
	// Timeout is the longest the server may stay silent: before answering, and
	// between two chunks of the stream. Zero means DefaultIdleTimeout; negative
	// means no limit. A silent server is reported as unreachable, so it is retried.
	Timeout time.Duration
}

// Provider streams chat completions from one OpenAI-compatible endpoint. It is safe
// for concurrent use.
type Provider struct {
	opts   Options
	client *http.Client
	// endpoint is where requests go; name is the same URL with any password
	// redacted, for error messages.
	endpoint, name string
	// header is sent with every request, before X-Affinity.
	header http.Header
	// now is the clock for Retry-After dates; tests replace it.
	now func() time.Time
}

// New returns a Provider for opts. It never fails: a bad BaseURL shows up as an
// error naming it on the first call.
func New(opts Options) *Provider {
	client := opts.HTTPClient
	if client == nil {
		client = &http.Client{Transport: sse.Transport()}
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultIdleTimeout
	}
	endpoint := strings.TrimRight(opts.BaseURL, "/") + "/chat/completions"
	name := endpoint
	if u, err := url.Parse(endpoint); err == nil {
		name = u.Redacted()
	}
	return &Provider{
		opts:     opts,
		client:   client,
		endpoint: endpoint,
		name:     name,
		header:   baseHeader(opts),
		now:      time.Now,
	}
}

// baseHeader is what every request carries. Accept says application/json, as the
// OpenAI SDKs (and so the seed) always sent, even for a stream.
func baseHeader(opts Options) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	if opts.APIKey != "" {
		h.Set("Authorization", "Bearer "+opts.APIKey)
	}
	if opts.UserAgent != "" {
		h.Set("User-Agent", opts.UserAgent)
	}
	for k, v := range opts.ExtraHeaders {
		h.Set(k, v)
	}
	return h
}

// errIdle is the cancellation cause when the server stays silent too long.
var errIdle = errors.New("idle timeout")

// doneMarker is the data of the event that ends an OpenAI stream.
var doneMarker = []byte("[DONE]")

// Stream sends req and streams the answer; see llm.Provider.
func (p *Provider) Stream(ctx context.Context, req llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
	if emit == nil {
		emit = func(llm.StreamEvent) {}
	}
	body, err := encodeRequest(req)
	if err != nil {
		return nil, fmt.Errorf("build request for %s: %w", p.name, err)
	}

	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	alive := func() {}
	if p.opts.Timeout > 0 {
		watchdog := time.AfterFunc(p.opts.Timeout, func() { cancel(errIdle) })
		defer watchdog.Stop()
		alive = func() { watchdog.Reset(p.opts.Timeout) }
	}

	httpReq, err := http.NewRequestWithContext(callCtx, http.MethodPost, p.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request for %s: %w", p.name, err)
	}
	httpReq.Header = p.header.Clone()
	if req.SessionID != "" {
		httpReq.Header.Set("X-Affinity", req.SessionID)
	}
	res, err := p.client.Do(httpReq)
	if err != nil {
		if callCtx.Err() == nil {
			err = unreachable(p.name, transportCause(err))
		}
		return nil, p.failure(ctx, callCtx, err)
	}
	defer func() { _ = res.Body.Close() }()
	alive()
	if res.StatusCode >= 400 {
		return nil, apiErrorFrom(res, p.name, p.now())
	}

	acc := p.newAssembler(req, emit)
	stream := &guardedBody{ReadCloser: res.Body, url: p.name, alive: alive,
		aborted: func() bool { return callCtx.Err() != nil }}
	chunks, err := p.readEvents(stream, acc)
	if err != nil {
		return nil, p.failure(ctx, callCtx, err)
	}
	if !acc.finished() {
		if chunks == 0 {
			return nil, fmt.Errorf("%s: %w: answer has no stream events (Content-Type %q)",
				p.name, llm.ErrUnreachable, res.Header.Get("Content-Type"))
		}
		return nil, fmt.Errorf("%s: %w: stream ended before the model finished", p.name, llm.ErrUnreachable)
	}
	drain(res.Body, func() { cancel(errDrained) })
	return acc.response(), nil
}

// transportCause drops the *url.Error around a transport failure: it repeats
// the method and URL that unreachable already names. The cause below it, such as
// ECONNREFUSED, stays in the chain.
func transportCause(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err
	}
	return err
}

// failure sorts the ways a call can fail: the caller's cancellation (its own
// error, never ErrUnreachable), our idle watchdog, and the rest, already typed
// where they happened.
func (p *Provider) failure(ctx, callCtx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", p.name, ctx.Err())
	}
	if errors.Is(context.Cause(callCtx), errIdle) {
		return unreachable(p.name, fmt.Errorf("no data for %s", p.opts.Timeout))
	}
	return err
}
