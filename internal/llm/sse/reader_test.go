package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func readAll(t *testing.T, r *Reader) ([]string, error) {
	t.Helper()
	var out []string
	for {
		data, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return out, err
		}
		out = append(out, string(data))
	}
}

func TestReaderFollowsEventStreamRules(t *testing.T) {
	stream := "event: message_start\r\ndata: {\"a\":1}\r\n\r\n" + // CRLF, event field ignored
		": keep-alive comment\n\n" + // comment alone is no event
		"data: line one\ndata:line two\n\n" + // data lines join with \n; the space is optional
		"id: 7\nretry: 10\n\n" + // an event without data is none
		"data: never finished" // dropped: its event never ended
	got, err := readAll(t, NewReader(strings.NewReader(stream)))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"a":1}`, "line one\nline two"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("events = %q, want %q", got, want)
	}
}

func TestReaderLongLines(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // over the 64 KiB read buffer
	got, err := readAll(t, NewReader(strings.NewReader("data: "+long+"\n\n")))
	if err != nil || len(got) != 1 || got[0] != long {
		t.Fatalf("long line: %d events, err %v", len(got), err)
	}
	r := NewReader(strings.NewReader("data: " + long + "\n\n"))
	r.maxLine = 100 << 10
	if _, err := readAll(t, r); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("err = %v, want ErrLineTooLong", err)
	}
}
