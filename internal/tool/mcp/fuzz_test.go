package mcp

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
)

// fuzzMaxLine is the frame reader's bound in FuzzStdioFraming, small so that the
// fuzzer reaches it.
const fuzzMaxLine = 300

// exitedProcess is a server that already exited, with what it wrote on stderr.
func exitedProcess(stderr string) *process {
	p := &process{stderr: &tail{max: stderrTail}, exited: make(chan struct{})}
	_, _ = p.stderr.Write([]byte(stderr))
	close(p.exited)
	return p
}

// readFrames reads r the way the SDK does, in small reads, until an error.
func readFrames(r io.Reader) ([]byte, error) {
	var out []byte
	buf := make([]byte, 17)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return out, err
		}
	}
}

// FuzzStdioFraming reads any bytes a stdio MCP server may write: the reader never
// panics, hands the SDK the lines that may be JSON-RPC unchanged and in order, and
// stops at the first line that is not, or is too long, with an error saying so.
func FuzzStdioFraming(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}` + "\n",
		`{"jsonrpc":"2.0","method":"notifications/message"}` + "\r\n[1]\n\n  \n",
		"Server listening on port 3000\n{}\n",
		`{"a":1}` + "\n" + strings.Repeat("{", 2*fuzzMaxLine) + "\n",
		`{"unterminated":`,
		"\xff\x00\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		p := exitedProcess("bye")
		r := &frameReader{p: p, in: bufio.NewReaderSize(bytes.NewReader(out), 64<<10), maxLine: fuzzMaxLine}
		got, err := readFrames(r)
		want, wantErr := expectedFrames(out, fuzzMaxLine)
		if !bytes.Equal(got, want) {
			t.Fatalf("handed the SDK %q, want %q", got, want)
		}
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("error %v, want one containing %q", err, wantErr)
		}
		if p.failure != err {
			t.Fatalf("the process records %v, the reader returned %v", p.failure, err)
		}
	})
}

// expectedFrames is the framing rule, written plainly: lines pass whole until one
// is over the bound or does not start like JSON-RPC; past the end, the exit.
func expectedFrames(out []byte, limit int) ([]byte, string) {
	var passed []byte
	for line := range bytes.Lines(out) {
		if len(line) > limit {
			return passed, "longer than"
		}
		if body := bytes.TrimSpace(line); len(body) > 0 && body[0] != '{' && body[0] != '[' {
			return passed, "which is not JSON-RPC"
		}
		passed = append(passed, line...)
	}
	return passed, "exited; its stderr ended with: bye"
}

// A server that never ends its line is stopped at the bound, not read into memory
// until it runs out.
func TestStdioFramingRefusesAnEndlessLine(t *testing.T) {
	p := exitedProcess("")
	endless := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","result":"`), endlessX{})
	r := &frameReader{p: p, in: bufio.NewReaderSize(endless, 64<<10), maxLine: 1 << 20}
	_, err := readFrames(r)
	if err == nil || !strings.Contains(err.Error(), "longer than 1048576 bytes") {
		t.Fatalf("err = %v, want the line refused at its bound", err)
	}
}

type endlessX struct{}

func (endlessX) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	return len(b), nil
}
