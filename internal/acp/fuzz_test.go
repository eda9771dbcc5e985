package acp

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// fuzzMaxLine is the guard's bound in FuzzGuardFraming, small so that the fuzzer
// reaches it.
const fuzzMaxLine = 200

// FuzzGuardFraming sends any byte stream from the client through the guard: it
// never panics and ends with the stream; what it forwards to the SDK is one JSON
// object per line; and every line that is not JSON, or is over the bound, gets a
// -32700 answer instead.
func FuzzGuardFraming(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}` + "\n",
		`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s"}}` + "\n" +
			`{"jsonrpc":"2.0","id":8,"method":"session/prompt","params":{"sessionId":"s"}}` + "\r\n" +
			`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`,
		"not json\n[1,2]\n\"str\"\n{}\n{\"id\":3,\"result\":{}}\n   \n",
		"{\"id\":null,\"method\":null}\n{\"method\":\"x\",\"id\":{\"a\":1}}\n{\"a\":\n1}\n",
		"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}" + strings.Repeat(" ", fuzzMaxLine) + "garbage\n{}\n",
		strings.Repeat("x", 3*fuzzMaxLine),
		"\xff\xfe\x00\n\x1b[1m\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		var replies bytes.Buffer
		g := newGuard(&replies)
		g.maxLine = fuzzMaxLine
		pr, pw := io.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			g.filter(bytes.NewReader(stream), pw)
		}()
		forwarded, err := io.ReadAll(pr)
		if err != nil {
			t.Fatalf("the SDK's side of the pipe: %v", err)
		}
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("filter did not return once the stream ended")
		}

		for line := range strings.Lines(string(forwarded)) {
			if !json.Valid([]byte(line)) || !strings.HasPrefix(line, "{") {
				t.Errorf("forwarded %q, not one JSON object", line)
			}
		}
		parseErrors := 0
		for line := range strings.Lines(replies.String()) {
			var msg struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" || msg.Error.Message == "" {
				t.Fatalf("the guard answered %q, not a JSON-RPC error", line)
			}
			if msg.Error.Code == -32700 {
				parseErrors++
			}
		}
		if want := unreadableLines(stream, fuzzMaxLine); parseErrors != want {
			t.Errorf("%d parse errors answered, want one for each of %d lines that are not JSON or are too long", parseErrors, want)
		}
	})
}

// unreadableLines counts the lines the guard must answer with a parse error: over
// limit bytes with their newline, or not blank and not JSON.
func unreadableLines(stream []byte, limit int) int {
	n := 0
	for line := range bytes.Lines(stream) {
		body := bytes.TrimSpace(line)
		if len(line) > limit || (len(body) > 0 && !json.Valid(body)) {
			n++
		}
	}
	return n
}

// A line over the bound is answered as too long, not cut into what may read as
// another message: cut after the object, its trailing garbage would be gone.
func TestGuardAnswersAnOverlongLine(t *testing.T) {
	var replies bytes.Buffer
	g := newGuard(&replies)
	g.maxLine = 64
	long := `{"jsonrpc":"2.0","method":"x"}` + strings.Repeat(" ", 64) + "garbage\n"
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		g.filter(strings.NewReader(long+`{"jsonrpc":"2.0","method":"y"}`+"\n"), pw)
	}()
	forwarded, err := io.ReadAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	<-done
	if got := string(forwarded); got != `{"jsonrpc":"2.0","method":"y"}`+"\n" {
		t.Errorf("forwarded %q, want only the second message", got)
	}
	if !strings.Contains(replies.String(), `"code":-32700`) || !strings.Contains(replies.String(), "longer than 64 bytes") {
		t.Errorf("answer = %q, want a parse error naming the bound", replies.String())
	}
}
