package sse

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzReader reads any byte stream: it never panics, returns after at most one
// call per line (so a finite body always ends), and gives exactly the events a
// plain reading of the rules gives.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"data: a\n\n",
		"data: {\"a\":\ndata: 1}\r\n\r\n",
		": keep-alive\n\nevent: x\nid: 1\nretry: 5\ndata\n\n",
		"data:  two spaces\n\ndata: open at the end",
		"\r\n\r\n\n\r",
		"data: a\rdata: b\n\n",
		"data: \x00\xff\xfe\n\n",
		"data:" + strings.Repeat("x", 70<<10) + "\n\n", // longer than the read buffer
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := NewReader(bytes.NewReader(stream))
		defer r.Release()
		var got []string
		// Each call consumes at least one line, so more calls than lines is a hang.
		for calls := 0; ; calls++ {
			if calls > bytes.Count(stream, []byte("\n"))+1 {
				t.Fatalf("Next called %d times on %d lines without io.EOF", calls, bytes.Count(stream, []byte("\n")))
			}
			data, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("Next on a finite in-memory stream: %v", err)
			}
			got = append(got, string(data))
		}
		if want := plainEvents(stream); !slices.Equal(got, want) {
			t.Fatalf("events = %q, want %q", got, want)
		}
	})
}

// plainEvents is the reading rules of Reader written as plainly as possible, as
// an oracle: lines end with LF (one CR before it is dropped), a blank line ends
// an event that has data, ":" starts a comment, "data" lines join with LF, and a
// last line without an ending is dropped with its event.
func plainEvents(stream []byte) []string {
	lines := strings.Split(string(stream), "\n")
	lines = lines[:len(lines)-1] // the text after the last LF has no ending
	var events []string
	var data []string
	for _, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case line == "":
			if data != nil {
				events = append(events, strings.Join(data, "\n"))
			}
			data = nil
		case strings.HasPrefix(line, ":"):
		default:
			field, value, _ := strings.Cut(line, ":")
			if field == "data" {
				data = append(data, strings.TrimPrefix(value, " "))
			}
		}
	}
	return events
}

// FuzzRoundTrip writes random events as an event stream, in the ways servers
// write them (LF or CRLF, with or without the space, comments and other fields
// between, reads cut anywhere), and reads the same events back.
func FuzzRoundTrip(f *testing.F) {
	f.Add("a\x1eb", uint8(0))
	f.Add("{\"choices\":[]}\x1e[DONE]", uint8(0xff))
	f.Add("two\nlines\x1e\x1e lead space\x1e:colon", uint8(0x5a))
	f.Add("", uint8(3))
	f.Fuzz(func(t *testing.T, blob string, style uint8) {
		// An event stream cannot carry CR in data: it would read as a line end.
		events := strings.Split(strings.ReplaceAll(blob, "\r", ""), "\x1e")
		stream := writeEvents(events, style)
		var in io.Reader = strings.NewReader(stream)
		if style&16 != 0 {
			in = iotest.OneByteReader(in)
		}
		r := NewReader(in)
		defer r.Release()
		var got []string
		for {
			data, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			got = append(got, string(data))
		}
		if !slices.Equal(got, events) {
			t.Fatalf("stream %q\nread %q, want %q", stream, got, events)
		}
	})
}

// writeEvents writes each event as a server would, the style's bits choosing the
// line ending, the optional space, and the comments and fields put between.
func writeEvents(events []string, style uint8) string {
	eol := "\n"
	if style&1 != 0 {
		eol = "\r\n"
	}
	var b strings.Builder
	for i, ev := range events {
		if style&2 != 0 {
			b.WriteString(": keep-alive" + eol + eol)
		}
		if style&4 != 0 {
			b.WriteString("event: message" + eol)
		}
		for line := range strings.SplitSeq(ev, "\n") {
			b.WriteString("data:")
			// A leading space of the data is kept only behind the separator's one.
			if style&8 != 0 || strings.HasPrefix(line, " ") {
				b.WriteString(" ")
			}
			b.WriteString(line + eol)
		}
		if style&32 != 0 && i%2 == 0 {
			b.WriteString("id: " + string(rune('0'+i%10)) + eol)
		}
		b.WriteString(eol)
		if style&64 != 0 {
			b.WriteString(eol) // blank lines between events dispatch nothing
		}
	}
	return b.String()
}
