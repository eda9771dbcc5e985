package index

import (
	"bytes"
	"errors"
	"fmt"
)

// errLeftOut marks a file the hashing found not worth extracting; its message
// is empty so that the wrapping error reads as the reason alone.
var errLeftOut = errors.New("")

// Thresholds of sniff. Judgement: git calls a file binary on a NUL byte in its
// first 8,000 bytes (buffer_is_binary); hand-written code averages well under 100
// bytes a line, a minified bundle tens of thousands, and a small file costs
// little whatever it is.
const (
	binaryWindow    = 8000
	minifiedMinSize = 64 << 10
	minifiedLine    = 1000 // average bytes a line
)

// sniff watches a file's bytes as they are hashed: a NUL byte near the start
// (binary) and the average line length (minified, hence generated).
type sniff struct {
	n, lines int64
	nul      bool
}

func (s *sniff) Write(p []byte) (int, error) {
	if s.n < binaryWindow && bytes.IndexByte(p[:min(int64(len(p)), binaryWindow-s.n)], 0) >= 0 {
		s.nul = true
	}
	s.n += int64(len(p))
	s.lines += int64(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

// verdict is the reason a file of lang is left out, or "". Go is never called
// generated: the type checker needs every file of a package.
func (s *sniff) verdict(lang string) string {
	switch {
	case s.nul:
		return because(WhyBinary, fmt.Sprintf("a NUL byte in its first %d bytes", binaryWindow))
	case lang != "go" && s.n >= minifiedMinSize && s.n/(s.lines+1) > minifiedLine:
		return because(WhyGenerated, fmt.Sprintf("minified: %d bytes a line on average", s.n/(s.lines+1)))
	}
	return ""
}
