package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// guard stands between the client's byte stream and the SDK's connection, because
// the SDK drops what it cannot parse without answering and lets a second
// session/prompt cancel the first. It answers malformed JSON (-32700), batches
// (-32600) and a prompt for a session that already runs one (an error naming the
// session) itself, passes everything else through, and tells the server when a
// response to session/new or session/load has been written, so the updates that must
// follow it are sent after it.
type guard struct {
	out io.Writer // the client's end; every write is one whole line
	wmu sync.Mutex
	// maxLine bounds one message read from the client; tests lower it.
	maxLine int

	mu       sync.Mutex
	requests map[string]pendingRequest // unanswered, by the canonical request id
	prompts  map[string]bool           // sessions with a prompt in flight
	// answered is called, outside any lock, once the response to a session/new or
	// session/load request has been written.
	answered func(method string, params, result json.RawMessage)
}

type pendingRequest struct {
	method  string
	session string // for session/prompt
	params  json.RawMessage
}

// maxLine bounds one message from the client, its newline included (10 MiB, the
// SDK's own scanner limit).
const maxLine = 10 << 20

// errLineTooLong reports a message over the guard's bound; the rest of its line
// was read and dropped.
var errLineTooLong = errors.New("message too long")

func newGuard(out io.Writer) *guard {
	return &guard{out: out, maxLine: maxLine, requests: map[string]pendingRequest{}, prompts: map[string]bool{}}
}

// Write is the SDK's writer: it forwards each message and notes the responses the
// guard waits for.
func (g *guard) Write(p []byte) (int, error) {
	// The request is done before the client can see its response, so the client's
	// next prompt is never taken for an overlapping one.
	after := g.ending(p)
	g.wmu.Lock()
	n, err := g.out.Write(p)
	g.wmu.Unlock()
	if err == nil && after != nil {
		after()
	}
	return n, err
}

// ending looks at one outgoing message for the end of a request the guard tracks,
// and returns what to run once it is written.
func (g *guard) ending(line []byte) func() {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method != "" || len(msg.ID) == 0 {
		return nil
	}
	g.mu.Lock()
	req, ok := g.requests[idKey(msg.ID)]
	if ok {
		delete(g.requests, idKey(msg.ID))
		if req.method == "session/prompt" {
			delete(g.prompts, req.session)
		}
	}
	answered := g.answered
	g.mu.Unlock()
	if ok && msg.Result != nil && answered != nil && (req.method == "session/new" || req.method == "session/load") {
		return func() { answered(req.method, req.params, msg.Result) }
	}
	return nil
}

// filter copies the client's messages from in to the SDK's reader until in ends.
func (g *guard) filter(in io.Reader, sdk *io.PipeWriter) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(r, g.maxLine)
		if errors.Is(err, errLineTooLong) {
			g.reply(nil, -32700, fmt.Sprintf("Parse error: a message is longer than %d bytes, the most one line may hold; send smaller messages", g.maxLine))
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if fwd := g.check(line); fwd != nil {
				if _, werr := sdk.Write(append(fwd, '\n')); werr != nil {
					return
				}
			}
		}
		if err != nil {
			_ = sdk.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line, without its newline. A line of more than limit bytes,
// its newline included, is drained and is errLineTooLong: cut, it could read as
// another message than the one sent.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > limit {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		switch {
		case tooLong:
			// A read error comes again on the next call, after the answer.
			return nil, errLineTooLong
		case err == nil:
			return bytes.TrimRight(line, "\r\n"), nil
		}
		return line, err
	}
}

// check answers what the SDK would drop or mishandle and returns what to forward.
func (g *guard) check(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	if !json.Valid(trimmed) {
		g.reply(nil, -32700, "Parse error: the message is not valid JSON; send one JSON-RPC object per line")
		return nil
	}
	if trimmed[0] == '[' {
		g.reply(nil, -32600, "Invalid request: JSON-RPC batches are not supported; send one request per line")
		return nil
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &msg) != nil {
		g.reply(nil, -32600, "Invalid request: a message must be a JSON-RPC object")
		return nil
	}
	if msg.Method == nil {
		if len(msg.ID) == 0 || (msg.Result == nil && msg.Error == nil) {
			g.reply(msg.ID, -32600, "Invalid request: a message needs a method, or an id with a result or an error")
			return nil
		}
		return trimmed // a response to one of our requests
	}
	if len(msg.ID) == 0 || string(msg.ID) == "null" {
		if *msg.Method == "session/cancel" && !g.promptInFlight(msg.Params) {
			// The SDK runs each message on its own goroutine: a cancel that reached
			// us after its turn ended could otherwise land on the client's next
			// prompt. With nothing running there is nothing to cancel.
			return nil
		}
		return trimmed // a notification
	}
	req := pendingRequest{method: *msg.Method}
	switch req.method {
	case "session/prompt":
		var p struct {
			SessionID string `json:"sessionId"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		req.session = p.SessionID
	case "session/new", "session/load":
		req.params = msg.Params
	}
	g.mu.Lock()
	if req.method == "session/prompt" && g.prompts[req.session] {
		g.mu.Unlock()
		g.reply(msg.ID, -32600, "Invalid request: session "+req.session+
			" is already running a prompt; wait for its response, or send session/cancel first")
		return nil
	}
	if req.method == "session/prompt" {
		g.prompts[req.session] = true
	}
	g.requests[idKey(msg.ID)] = req
	g.mu.Unlock()
	return trimmed
}

// promptInFlight reports whether the session a cancel names has a prompt the client
// has not had the answer to yet.
func (g *guard) promptInFlight(params json.RawMessage) bool {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	_ = json.Unmarshal(params, &p)
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.prompts[p.SessionID]
}

// reply writes an error response; id nil means the request's id could not be read.
func (g *guard) reply(id json.RawMessage, code int, message string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	g.wmu.Lock()
	defer g.wmu.Unlock()
	_, _ = g.out.Write(append(b, '\n'))
}

// idKey canonicalises a request id the way the client will see it echoed: the SDK
// copies the raw id into its response, so the compact form is enough.
func idKey(id json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, id) != nil {
		return string(id)
	}
	return buf.String()
}

// drain waits, at most timeout, until every request the client sent is answered:
// a client that writes its requests and closes its end still gets the answers.
func (g *guard) drain(timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		g.mu.Lock()
		n := len(g.requests)
		g.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
