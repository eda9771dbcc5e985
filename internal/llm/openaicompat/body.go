package openaicompat

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm/sse"
)

const (
	// drainWait and drainLimit bound the read of what follows [DONE]. By
	// judgement: servers end the body right after it (a few bytes of chunked
	// encoding or an HTTP/2 end of stream), so this costs microseconds, and a
	// server that holds the body open costs at most 50 ms a call.
	drainWait  = 50 * time.Millisecond
	drainLimit = 64 << 10
)

// errDrained is the cancellation cause when drain gives up.
var errDrained = errors.New("body not closed after [DONE]")

// readEvents decodes the stream's chunks into acc until [DONE] or the end of the
// body, and returns how many chunks it saw. Any content type is read as a stream,
// so a JSON answer to a streaming request shows up as zero chunks.
func (p *Provider) readEvents(body io.Reader, acc *assembler) (int, error) {
	events := sse.NewReader(body)
	defer events.Release()
	chunks := 0
	for {
		data, err := events.Next()
		if errors.Is(err, io.EOF) {
			return chunks, nil
		}
		if err != nil {
			return chunks, err
		}
		if bytes.HasPrefix(data, doneMarker) {
			return chunks, nil
		}
		var c wireChunk
		if err := decodeChunk(data, &c); err != nil {
			return chunks, fmt.Errorf("read stream from %s: %w", p.name, err)
		}
		if c.isErrorEvent() {
			return chunks, streamAPIError(data, c.Error, p.name)
		}
		chunks++
		acc.add(&c)
	}
}

// drain reads the rest of the body after [DONE], so the connection goes back to
// the pool for the next turn: net/http closes one whose body was not read to
// its end, and the next call then pays a new TCP and TLS handshake. abort stops a
// read that waits longer than drainWait.
func drain(body io.Reader, abort func()) {
	t := time.AfterFunc(drainWait, abort)
	defer t.Stop()
	_, _ = io.CopyN(io.Discard, body, drainLimit)
}

// guardedBody wraps a streaming response body: each read tells the idle watchdog
// the server is alive, and a read failure that is not our own cancellation becomes
// an ErrUnreachable that names the URL.
type guardedBody struct {
	io.ReadCloser
	url     string
	alive   func()
	aborted func() bool
}

func (b *guardedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.alive()
	}
	if err != nil && !errors.Is(err, io.EOF) && !b.aborted() {
		err = unreachable(b.url, fmt.Errorf("stream broken: %w", err))
	}
	return n, err
}
