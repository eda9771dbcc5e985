package acp

import (
	"bufio"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// rawClient writes lines and reads the server's answers without an SDK, to send what
// no SDK would.
type rawClient struct {
	t   *testing.T
	w   io.Writer
	out chan map[string]any
}

func newRawClient(t *testing.T, f *fixture, fromSrv io.Reader) *rawClient {
	rc := &rawClient{t: t, w: f.toSrv, out: make(chan map[string]any, 64)}
	go func() {
		sc := bufio.NewScanner(fromSrv)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("the server wrote a line that is not JSON: %q", sc.Text())
				continue
			}
			rc.out <- m
		}
		close(rc.out)
	}()
	return rc
}

func (rc *rawClient) send(line string) {
	rc.t.Helper()
	if _, err := io.WriteString(rc.w, line+"\n"); err != nil {
		rc.t.Fatal(err)
	}
}

// next returns the next message that is not a session/update notification.
func (rc *rawClient) next() map[string]any {
	rc.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-rc.out:
			if !ok {
				rc.t.Fatal("the server closed the stream")
			}
			if m["method"] == "session/update" {
				continue
			}
			return m
		case <-timeout:
			rc.t.Fatal("no answer from the server")
		}
	}
}

func errCode(m map[string]any) (float64, any) {
	e, _ := m["error"].(map[string]any)
	if e == nil {
		return 0, m["id"]
	}
	c, _ := e["code"].(float64)
	return c, m["id"]
}

func TestBadInputGetsJSONRPCErrors(t *testing.T) {
	f, out := start(t, fakemodel.Script{}, nil)
	rc := newRawClient(t, f, out)
	cases := []struct {
		name, line string
		code       float64
		id         any
	}{
		{"malformed JSON", `{"jsonrpc":"2.0","id":1,"method":"initialize"`, -32700, nil},
		{"a batch", `[{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}]`, -32600, nil},
		{"an empty batch", `[]`, -32600, nil},
		{"not an object", `42`, -32600, nil},
		{"an unknown method", `{"jsonrpc":"2.0","id":3,"method":"session/teleport","params":{}}`, -32601, float64(3)},
		{"neither method nor result", `{"jsonrpc":"2.0","id":4}`, -32600, float64(4)},
		{"bad params", `{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":7}}`, -32602, float64(5)},
		{"a relative cwd", `{"jsonrpc":"2.0","id":6,"method":"session/new","params":{"cwd":"work","mcpServers":[]}}`, -32602, float64(6)},
		{"an unknown session", `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}}`, -32002, float64(7)},
	}
	for _, tc := range cases {
		rc.send(tc.line)
		code, id := errCode(rc.next())
		if code != tc.code || id != tc.id {
			t.Errorf("%s: code %v id %v, want %v id %v", tc.name, code, id, tc.code, tc.id)
		}
	}
	// The connection survived all of it.
	rc.send(`{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"protocolVersion":1}}`)
	if m := rc.next(); m["result"] == nil {
		t.Fatalf("initialize after bad input: %v", m)
	}
	// A notification for an unknown session, and a cancel of nothing, are ignored.
	rc.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"nope"}}`)
	rc.send(`{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":1}}`)
	if m := rc.next(); m["id"] != float64(9) || m["result"] == nil {
		t.Fatalf("after a stray cancel: %v", m)
	}
}

func TestMissingAPIKeyIsAuthRequired(t *testing.T) {
	f, out := start(t, fakemodel.Script{}, map[string]string{"ALBERT_API_KEY": ""})
	rc := newRawClient(t, f, out)
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": map[string]any{"cwd": f.work, "mcpServers": []any{}}})
	rc.send(string(line))
	if code, _ := errCode(rc.next()); code != -32000 {
		t.Fatalf("session/new without a key: code %v, want -32000 (auth_required)", code)
	}
}
