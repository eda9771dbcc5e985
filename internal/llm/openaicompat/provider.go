// Package openaicompat is the llm.Provider for servers that speak OpenAI's Chat
// Completions API: Albert, OpenAI, Ollama, vLLM, llama.cpp. It streams through the
// official openai-go SDK with the SDK's retries off (internal/llm/retry owns them),
// reads the fields those servers add (reasoning_content, missing tool call indexes),
// and can recover tool calls that Qwen models write as XML text.
package openaicompat

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
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
	// ExtraHeaders are added to every request.
	ExtraHeaders map[string]string
	// UserAgent is sent as User-Agent, such as "albert-code/1.2.0".
	UserAgent string
	// HTTPClient sends the requests; nil uses a client on a clone of
	// http.DefaultTransport. Its Timeout must be zero or longer than any answer:
	// it bounds the whole stream.
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
	opts     Options
	service  openai.ChatCompletionService
	endpoint string
	// now is the clock for Retry-After dates; tests replace it.
	now func() time.Time
}

// New returns a Provider for opts. It never fails: a bad BaseURL shows up as an
// error naming it on the first call.
func New(opts Options) *Provider {
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultIdleTimeout
	}
	base := strings.TrimRight(opts.BaseURL, "/") + "/"
	sdkOpts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(opts.HTTPClient),
		option.WithMaxRetries(0),
	}
	if opts.APIKey != "" {
		sdkOpts = append(sdkOpts, option.WithAPIKey(opts.APIKey))
	}
	if opts.UserAgent != "" {
		sdkOpts = append(sdkOpts, option.WithHeader("User-Agent", opts.UserAgent))
	}
	for k, v := range opts.ExtraHeaders {
		sdkOpts = append(sdkOpts, option.WithHeader(k, v))
	}
	return &Provider{
		opts: opts,
		// NewChatCompletionService, unlike openai.NewClient, reads no OPENAI_*
		// variable: a key meant for OpenAI must never reach another server.
		service:  openai.NewChatCompletionService(sdkOpts...),
		endpoint: base + "chat/completions",
		now:      time.Now,
	}
}

// errIdle is the cancellation cause when the server stays silent too long.
var errIdle = errors.New("idle timeout")

// Stream sends req and streams the answer; see llm.Provider.
func (p *Provider) Stream(ctx context.Context, req llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
	if emit == nil {
		emit = func(llm.StreamEvent) {}
	}
	params, err := buildParams(req)
	if err != nil {
		return nil, fmt.Errorf("build request for %s: %w", p.endpoint, err)
	}

	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	alive := func() {}
	if p.opts.Timeout > 0 {
		watchdog := time.AfterFunc(p.opts.Timeout, func() { cancel(errIdle) })
		defer watchdog.Stop()
		alive = func() { watchdog.Reset(p.opts.Timeout) }
	}

	var contentType string
	reqOpts := []option.RequestOption{option.WithMiddleware(p.guard(callCtx, alive, &contentType))}
	if req.SessionID != "" {
		reqOpts = append(reqOpts, option.WithHeader("X-Affinity", req.SessionID))
	}

	stream := p.service.NewStreaming(callCtx, params, reqOpts...)
	defer stream.Close()
	acc := p.newAssembler(req, emit)
	chunks := 0
	for stream.Next() {
		chunks++
		acc.add(stream.Current())
	}
	if err := p.streamError(ctx, callCtx, stream.Err()); err != nil {
		return nil, err
	}
	if !acc.finished() {
		if chunks == 0 {
			return nil, fmt.Errorf("%s: %w: answer has no stream events (Content-Type %q)", p.endpoint, llm.ErrUnreachable, contentType)
		}
		return nil, fmt.Errorf("%s: %w: stream ended before the model finished", p.endpoint, llm.ErrUnreachable)
	}
	return acc.response(), nil
}

// guard is the per-call middleware between the SDK and the network. It turns
// transport failures into ErrUnreachable and HTTP errors into *llm.APIError before
// the SDK sees them (the SDK only understands OpenAI's error shape), feeds the idle
// watchdog, and records the answer's Content-Type for error messages.
func (p *Provider) guard(callCtx context.Context, alive func(), contentType *string) option.Middleware {
	return func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		stripSDKHeaders(r.Header)
		url := r.URL.Redacted()
		res, err := next(r)
		if err != nil {
			if callCtx.Err() != nil {
				return nil, err // cancelled or idle: Stream says which
			}
			return nil, unreachable(url, err)
		}
		alive()
		if res.StatusCode >= 400 {
			return nil, apiErrorFrom(res, url, p.now())
		}
		*contentType = res.Header.Get("Content-Type")
		res.Body = &guardedBody{ReadCloser: res.Body, url: url, alive: alive,
			aborted: func() bool { return callCtx.Err() != nil }}
		return res, nil
	}
}

// streamError sorts the ways a stream can fail: the caller's cancellation (its own
// error, never ErrUnreachable), our idle watchdog, errors the middleware already
// typed, error events inside the stream, and undecodable chunks.
func (p *Provider) streamError(ctx, callCtx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", p.endpoint, ctx.Err())
	}
	if errors.Is(context.Cause(callCtx), errIdle) {
		return unreachable(p.endpoint, fmt.Errorf("no data for %s", p.opts.Timeout))
	}
	var apiErr *llm.APIError
	if errors.As(err, &apiErr) || errors.Is(err, llm.ErrUnreachable) {
		return err
	}
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		return streamAPIError(se, p.endpoint)
	}
	return fmt.Errorf("read stream from %s: %w", p.endpoint, err)
}

// stripSDKHeaders removes the SDK's X-Stainless-* telemetry (OS, architecture,
// runtime version): a government endpoint has no use for it, and the request then
// carries exactly what the seed sent.
func stripSDKHeaders(h http.Header) {
	for k := range h {
		if strings.HasPrefix(k, "X-Stainless-") {
			h.Del(k)
		}
	}
}
