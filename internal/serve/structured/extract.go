package structured

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Where a value was found in an answer, from the most to the least literal.
const (
	FromText     = "text"     // the whole answer is the JSON
	FromFence    = "fence"    // a Markdown code block
	FromEmbedded = "embedded" // an object or array among prose
	FromString   = "string"   // JSON inside a JSON string (double-encoded)
	FromRepaired = "repaired" // after removing comments and trailing commas
)

// Parsed is the JSON value found in an answer.
type Parsed struct {
	// Value is the decoded value; numbers are json.Number, so no precision is lost.
	Value any
	// JSON is the value as the agent wrote it, compacted: key order and number
	// spelling kept, fences and prose gone.
	JSON json.RawMessage
	// From says where it was found (FromText, FromFence...).
	From string
}

// ErrNoMatch is matched by errors.Is on a *ParseError.
var ErrNoMatch = errors.New("no JSON matching the schema in the answer")

// ParseError says why an answer gave no usable JSON: either nothing in it parsed
// (NotJSON, with Detail), or what parsed did not match the schema (Problems, for
// the most likely candidate).
type ParseError struct {
	NotJSON  bool
	Detail   string
	Problems []Problem
}

func (e *ParseError) Error() string {
	if e.NotJSON {
		return "the answer is not JSON: " + e.Detail
	}
	return "the answer does not match the schema: " + joinProblems(e.Problems)
}

func (e *ParseError) Is(target error) bool { return target == ErrNoMatch }

// Extract finds the JSON value in an agent's answer that matches s (any JSON value
// when s is nil). Candidates are tried in this order, each once, and the first that
// parses and matches wins:
//
//  1. the whole answer;
//  2. each Markdown code block (``` or ~~~, closed or not), the last first: an
//     agent that shows an example and then answers puts the answer last;
//  3. each object or array among the prose, the last first; one that does not
//     parse (prose in braces, code) is searched for objects inside it;
//  4. the content of a JSON string that holds JSON, for double-encoded answers;
//  5. the candidates above with comments and trailing commas removed.
//
// The original only tried the first brace of the text, so a "{name}" in the prose
// before the answer hid it.
func Extract(text string, s *Schema) (Parsed, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	if strings.TrimSpace(text) == "" {
		return Parsed{}, &ParseError{NotJSON: true, Detail: "the answer is empty"}
	}
	x := extraction{schema: s, seen: map[string]bool{}, budget: scanBudget(len(text))}
	if p, ok := x.try(text, FromText); ok {
		return p, nil
	}
	blocks := fencedBlocks(text)
	for i := len(blocks) - 1; i >= 0; i-- {
		if p, ok := x.try(blocks[i], FromFence); ok {
			return p, nil
		}
	}
	if p, ok := x.embedded(text); ok {
		return p, nil
	}
	for _, c := range x.strings {
		if p, ok := x.try(c, FromString); ok {
			return p, nil
		}
	}
	for _, c := range x.failed {
		if r, changed := repair(c); changed {
			if p, ok := x.try(r, FromRepaired); ok {
				return p, nil
			}
		}
	}
	return Parsed{}, x.err()
}

// extraction holds the state of one Extract call.
type extraction struct {
	schema *Schema
	seen   map[string]bool
	budget int // bytes the bracket scanner may still read

	firstMismatch []Problem // problems of the first candidate that parsed
	syntaxErr     string    // why the most JSON-like candidate did not parse
	failed        []string  // candidates that did not parse, for repair
	strings       []string  // JSON strings whose content looks like JSON
}

// try parses one candidate and checks it against the schema.
func (x *extraction) try(c, from string) (Parsed, bool) {
	c = strings.TrimSpace(c)
	if c == "" || x.seen[c] {
		return Parsed{}, false
	}
	x.seen[c] = true
	v, err := decodeValue([]byte(c))
	if err != nil {
		if c[0] == '{' || c[0] == '[' || x.syntaxErr == "" {
			x.syntaxErr = err.Error()
		}
		if c[0] == '{' || c[0] == '[' {
			x.failed = append(x.failed, c)
		}
		return Parsed{}, false
	}
	if str, ok := v.(string); ok && from != FromString {
		if t := strings.TrimSpace(str); t != "" && (t[0] == '{' || t[0] == '[') {
			x.strings = append(x.strings, t)
		}
	}
	if x.schema != nil {
		if problems := x.schema.Validate(v); len(problems) > 0 {
			if x.firstMismatch == nil {
				x.firstMismatch = problems
			}
			return Parsed{}, false
		}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(c)); err != nil {
		return Parsed{}, false // unreachable: c decoded
	}
	return Parsed{Value: v, JSON: buf.Bytes(), From: from}, true
}

// embedded tries the objects and arrays found among the prose of text, the last
// first, and searches inside those that do not parse.
func (x *extraction) embedded(text string) (Parsed, bool) {
	spans := x.brackets(text)
	for i := len(spans) - 1; i >= 0; i-- {
		c := text[spans[i][0]:spans[i][1]]
		if p, ok := x.try(c, FromEmbedded); ok {
			return p, true
		}
		if _, err := decodeValue([]byte(c)); err != nil && len(c) > 2 {
			if p, ok := x.embedded(c[1 : len(c)-1]); ok {
				return p, true
			}
		}
	}
	return Parsed{}, false
}

func (x *extraction) err() error {
	if x.firstMismatch != nil {
		return &ParseError{Problems: x.firstMismatch}
	}
	detail := "no JSON value found"
	if x.syntaxErr != "" {
		detail += " (" + x.syntaxErr + ")"
	}
	return &ParseError{NotJSON: true, Detail: detail}
}

// decodeValue parses exactly one JSON value, numbers as json.Number.
func decodeValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the JSON value at offset %d", dec.InputOffset())
	}
	return v, nil
}
