package openaicompat

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

const (
	// sseBufferSize is the read buffer: a typical chunk (200-400 bytes) and many
	// of them fit, so most lines are read without copying into lineBuf.
	sseBufferSize = 64 << 10
	// maxSSELine bounds one line. A server that does not really stream may send a
	// whole answer (a file being written) in one chunk, so the bound is large: the
	// 32 MiB the openai-go SDK allowed, by judgement still far above any answer.
	maxSSELine = 32 << 20
)

// errLineTooLong reports a line longer than maxSSELine.
var errLineTooLong = fmt.Errorf("server-sent event line longer than %d bytes", maxSSELine)

// sseReader reads the data of server-sent events, following the WHATWG
// event-stream rules that matter for chat completions: an empty line ends an
// event, several data lines are joined with "\n", lines starting with ":" are
// comments (keep-alives), a line ends with LF or CRLF, and an event still open
// at the end of the stream is dropped. Other fields (event, id, retry) carry
// nothing chat completions use and are ignored.
type sseReader struct {
	r *bufio.Reader
	// data is the current event's data, reused from event to event.
	data []byte
	// hasData is whether the current event has had a data line, even empty.
	hasData bool
	// lineBuf gathers a line longer than the read buffer.
	lineBuf []byte
	// maxLine is maxSSELine; tests lower it.
	maxLine int
}

// readBuffers keeps the read buffers of finished streams: a fresh 64 KiB buffer per
// call was cleared and collected again on every call, 6 % of the serve layer's CPU
// under load.
var readBuffers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, sseBufferSize) }}

func newSSEReader(r io.Reader) *sseReader {
	br := readBuffers.Get().(*bufio.Reader)
	br.Reset(r)
	return &sseReader{r: br, maxLine: maxSSELine}
}

// release gives the read buffer back; the reader and what it returned are not used
// after it.
func (s *sseReader) release() {
	s.r.Reset(nil)
	readBuffers.Put(s.r)
	s.r = nil
}

// next returns the data of the next event, valid until the following call, or
// io.EOF when the stream ends.
func (s *sseReader) next() ([]byte, error) {
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
		field, value, found := bytes.Cut(line, []byte(":"))
		if found && len(value) > 0 && value[0] == ' ' {
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

// readLine returns the next line without its line ending, valid until the next
// call. A last line with no line ending is returned as io.EOF: the event it
// belongs to never completed.
func (s *sseReader) readLine() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		s.lineBuf = append(s.lineBuf[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(s.lineBuf) > s.maxLine {
				return nil, errLineTooLong
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
