package sse

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// The WHATWG rules, read one byte at a time so that lines straddle reads.
func TestReaderRulesOneByteAtATime(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 3*(64<<10))
	tests := []struct {
		name   string
		stream string
		want   []string
	}{
		{"one event per data line", "data: a\n\ndata: b\n\n", []string{"a", "b"}},
		{"no space after the colon", "data:a\n\n", []string{"a"}},
		{"only one leading space is dropped", "data:  a \n\n", []string{" a "}},
		{"data lines of one event are joined with LF", "data: {\"a\":\ndata: 1}\n\n", []string{"{\"a\":\n1}"}},
		{"CRLF line endings", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"a", "b"}},
		{"comments and other fields are ignored", ": keep-alive\n\nevent: chunk\nid: 7\nretry: 10\ndata: a\n\n", []string{"a"}},
		{"blank lines without data dispatch nothing", "\n\n\ndata: a\n\n\n", []string{"a"}},
		{"an empty data line is an event", "data:\n\n", []string{""}},
		{"a field without colon is its name", "data\ndata: a\n\n", []string{"\na"}},
		{"an event left open at the end is dropped", "data: a\n\ndata: b\n", []string{"a"}},
		{"a last line without its ending is dropped", "data: a\n\ndata: b", []string{"a"}},
		{"a line longer than the read buffer", "data: " + long + "\n\ndata: b\n\n", []string{long, "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// One byte per read, so that lines straddle reads.
			s := NewReader(iotest.OneByteReader(strings.NewReader(tc.stream)))
			var got []string
			for {
				data, err := s.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("next: %v", err)
				}
				got = append(got, string(data))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("events = %.200q, want %.200q", got, tc.want)
			}
		})
	}
}

func TestReaderLineTooLong(t *testing.T) {
	t.Parallel()
	s := NewReader(io.MultiReader(strings.NewReader("data: "), infiniteX{}))
	s.maxLine = 4 * (64 << 10)
	if _, err := s.Next(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("err = %v, want %v", err, ErrLineTooLong)
	}
}

// infiniteX is a line that never ends.
type infiniteX struct{}

func (infiniteX) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestReaderPassesErrors(t *testing.T) {
	t.Parallel()
	broken := errors.New("connection reset")
	s := NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(broken)))
	if data, err := s.Next(); err != nil || string(data) != "a" {
		t.Fatalf("first event = %q, %v", data, err)
	}
	if _, err := s.Next(); !errors.Is(err, broken) {
		t.Fatalf("err = %v, want the read error", err)
	}
}
