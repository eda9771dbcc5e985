package supervisor

import "bytes"

// lineSplitter turns chunks into lines for a streaming parser. A line longer than max
// is given cut to max bytes: one record that big is broken for any parser anyway, and
// holding it whole would let one line take the server's memory.
type lineSplitter struct {
	onLine  func([]byte)
	max     int
	buf     []byte
	cutting bool // the current line passed max: drop bytes until its newline
	cut     int
}

func (s *lineSplitter) Write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		if !s.cutting {
			if room := s.max - len(s.buf); len(part) > room {
				s.buf = append(s.buf, part[:room]...)
				s.cutting = true
				s.cut++
			} else {
				s.buf = append(s.buf, part...)
			}
		}
		if i < 0 {
			return
		}
		s.emit()
		p = p[i+1:]
	}
}

// flush gives the last line when the stream ended without a newline.
func (s *lineSplitter) flush() {
	if len(s.buf) > 0 || s.cutting {
		s.emit()
	}
}

func (s *lineSplitter) emit() {
	line := bytes.TrimSuffix(s.buf, []byte{'\r'})
	s.onLine(line)
	s.buf = s.buf[:0]
	if cap(s.buf) > 1<<20 {
		s.buf = nil // one huge line should not pin its buffer for the whole run
	}
	s.cutting = false
}
