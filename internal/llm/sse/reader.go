// Package sse is the HTTP plumbing the hand-written provider wires share: it
// posts a JSON request, turns an HTTP error answer into an *llm.APIError through
// the caller's parser, reads the server-sent events of the answer, and sorts
// failures into the caller's cancellation, llm.ErrUnreachable and API errors.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// maxLine bounds one line: a server that does not really stream may send a whole
// answer in one event, so the bound is large, as in openaicompat.
const maxLine = 32 << 20

// ErrLineTooLong reports a line longer than the reader's bound.
var ErrLineTooLong = fmt.Errorf("server-sent event line longer than %d bytes", maxLine)

// Reader reads the data of server-sent events by the WHATWG rules the model APIs
// use: an empty line ends an event, several data lines join with "\n", lines
// starting with ":" are comments, lines end with LF or CRLF, and an event still
// open when the body ends is dropped (it never completed). The event field is
// not needed: Anthropic repeats it as "type" in the data, Google sends none.
type Reader struct {
	r       *bufio.Reader
	data    []byte
	hasData bool
	lineBuf []byte
	maxLine int
}

// readBuffers keeps the 64 KiB read buffers of finished streams: a fresh one per
// call was cleared and collected again on every call, 6 % of the serve layer's CPU
// under load.
var readBuffers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// NewReader reads events from r with a pooled buffer; Release gives it back.
func NewReader(r io.Reader) *Reader {
	br := readBuffers.Get().(*bufio.Reader)
	br.Reset(r)
	return &Reader{r: br, maxLine: maxLine}
}

// Release gives the read buffer back; the reader and the data it returned are
// not used after it.
func (s *Reader) Release() {
	s.r.Reset(nil)
	readBuffers.Put(s.r)
	s.r = nil
}

// Next returns the data of the next event, valid until the following call, or
// io.EOF when the stream ends.
func (s *Reader) Next() ([]byte, error) {
	s.data, s.hasData = s.data[:0], false
	for {
		line, err := s.readLine()
		if err != nil {
			return nil, err
		}
		if len(line) == 0 {
			if s.hasData {
				return s.data, nil
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		if string(field) != "data" {
			continue
		}
		if s.hasData {
			s.data = append(s.data, '\n')
		}
		s.data = append(s.data, value...)
		s.hasData = true
	}
}

// readLine returns the next line without its ending. A last line with no ending
// is io.EOF: its event never completed.
func (s *Reader) readLine() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		s.lineBuf = append(s.lineBuf[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(s.lineBuf) > s.maxLine {
				return nil, ErrLineTooLong
			}
			line, err = s.r.ReadSlice('\n')
			s.lineBuf = append(s.lineBuf, line...)
		}
		line = s.lineBuf
	}
	if err != nil {
		return nil, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}
