package sse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// ErrDone is what a handler returns after the event that ends the answer: the rest
// of the body is then drained, not decoded.
var ErrDone = errors.New("sse: answer complete")

const (
	// drainWait and drainLimit bound the read of what follows the last event, so
	// the connection goes back to the pool; by judgement, as in openaicompat.
	drainWait  = 50 * time.Millisecond
	drainLimit = 64 << 10
	// maxErrorBody bounds what is read of an error answer.
	maxErrorBody = 64 << 10
)

// errIdle is the cancellation cause when the server stays silent too long.
var errIdle = errors.New("idle timeout")

// Call is one streaming POST.
type Call struct {
	Client *http.Client
	// URL is where the request goes; Name is how errors name it (no secrets).
	URL, Name string
	Header    http.Header
	Body      []byte
	// Timeout is the longest the server may stay silent, before answering and
	// between two reads; zero or negative means no limit.
	Timeout time.Duration
	// APIError builds the error for an HTTP status >= 400 from the status, the
	// headers and the start of the body.
	APIError func(status int, header http.Header, body []byte) *llm.APIError
}

// Run sends the call and gives the data of each event to handle, until handle
// returns ErrDone or an error, or the body ends. It returns the number of events
// handled. Errors are: the caller's ctx error, an *llm.APIError, handle's own
// error, or one wrapping llm.ErrUnreachable that names c.Name.
func (c Call) Run(ctx context.Context, handle func(data []byte) error) (int, error) {
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	alive := func() {}
	if c.Timeout > 0 {
		watchdog := time.AfterFunc(c.Timeout, func() { cancel(errIdle) })
		defer watchdog.Stop()
		alive = func() { watchdog.Reset(c.Timeout) }
	}
	req, err := http.NewRequestWithContext(callCtx, http.MethodPost, c.URL, bytes.NewReader(c.Body))
	if err != nil {
		return 0, fmt.Errorf("build request for %s: %w", c.Name, err)
	}
	req.Header = c.Header.Clone()
	res, err := c.Client.Do(req)
	if err != nil {
		return 0, c.failure(ctx, callCtx, unreachable(c.Name, transportCause(err)))
	}
	defer func() { _ = res.Body.Close() }()
	alive()
	if res.StatusCode >= 400 {
		body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		e := c.APIError(res.StatusCode, res.Header, body)
		e.Log()
		return 0, e
	}
	events := NewReader(&guardedBody{r: res.Body, alive: alive})
	defer events.Release()
	n := 0
	for {
		data, err := events.Next()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, c.failure(ctx, callCtx, unreachable(c.Name, fmt.Errorf("stream broken: %w", err)))
		}
		n++
		if err := handle(data); errors.Is(err, ErrDone) {
			drain(res.Body, func() { cancel(errDrained) })
			return n, nil
		} else if err != nil {
			return n, err
		}
	}
}

// errDrained is the cancellation cause when drain gives up.
var errDrained = errors.New("body not closed after the last event")

// failure sorts a failed call: the caller's cancellation (its own error, never
// ErrUnreachable), our idle watchdog, and the rest as given.
func (c Call) failure(ctx, callCtx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", c.Name, ctx.Err())
	}
	if errors.Is(context.Cause(callCtx), errIdle) {
		return unreachable(c.Name, fmt.Errorf("no data for %s", c.Timeout))
	}
	return err
}

// Unreachable wraps a transport or stream failure so that errors.Is finds both
// llm.ErrUnreachable and the cause, and the message names the server.
func Unreachable(name string, cause error) error { return unreachable(name, cause) }

func unreachable(name string, cause error) error {
	return fmt.Errorf("%s: %w: %w", name, llm.ErrUnreachable, cause)
}

// transportCause drops the *url.Error around a transport failure: it repeats the
// method and URL that unreachable already names.
func transportCause(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err
	}
	return err
}

// drain reads what follows the last event so the connection can be reused;
// abort stops a read that waits longer than drainWait.
func drain(body io.Reader, abort func()) {
	t := time.AfterFunc(drainWait, abort)
	defer t.Stop()
	_, _ = io.CopyN(io.Discard, body, drainLimit)
}

// guardedBody tells the idle watchdog about each read that brought data.
type guardedBody struct {
	r     io.Reader
	alive func()
}

func (b *guardedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 {
		b.alive()
	}
	return n, err
}

// Excerpt is the start of an error body kept in llm.APIError.Body, as long as
// openaicompat keeps.
func Excerpt(body []byte) string {
	const n = 500
	if len(body) > n {
		body = body[:n]
	}
	return string(body)
}
