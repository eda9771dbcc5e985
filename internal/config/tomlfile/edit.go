package tomlfile

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// SetKey returns data with the value at key (its table path, then its name) set to
// value, a TOML value already encoded (see String). Only the bytes of that value
// change when the key is written; otherwise one line is added where a reader looks
// for it: after the table's last key, or in a new table at the end. Comments, blank
// lines, order and every other key are kept byte for byte, which re-encoding the
// document would lose. A document that does not parse is refused with its line.
func SetKey(path string, data []byte, key []string, value string) ([]byte, error) {
	d, err := scanDocument(path, data)
	if err != nil {
		return nil, err
	}
	if err := d.checkNotInline(key); err != nil {
		return nil, err
	}
	if a, ok := d.find(key); ok {
		return splice(data, a.valueStart, a.end, value), nil
	}
	table, name := key[:len(key)-1], key[len(key)-1]
	if len(table) > 0 {
		if h, ok := d.header(table); ok {
			at := h.lineEnd
			for _, a := range d.assigns {
				if a.section == h.index {
					at = a.lineEnd
				}
			}
			return d.insertLine(at, name+" = "+value), nil
		}
		if !d.dottedAtTop(table) {
			return d.appendTable(table, name+" = "+value), nil
		}
		// Keys such as compaction.x = 1 at the top level already define the table:
		// a [compaction] header would define it twice.
		name = strings.Join(key, ".")
	}
	return d.insertTopLevel(name + " = " + value), nil
}

// DeleteKey returns data without the line that sets key, and whether there was one.
// Comments above the line and the rest of the document are kept.
func DeleteKey(path string, data []byte, key []string) ([]byte, bool, error) {
	d, err := scanDocument(path, data)
	if err != nil {
		return nil, false, err
	}
	if err := d.checkNotInline(key); err != nil {
		return nil, false, err
	}
	a, ok := d.find(key)
	if !ok {
		return data, false, nil
	}
	return splice(data, a.lineStart, a.lineEnd, ""), true, nil
}

// String encodes s as a TOML basic string.
func String(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// document is where each top-level expression of a TOML file sits.
type document struct {
	path    string
	data    []byte
	headers []header
	assigns []assignment
}

type header struct {
	path      []string
	array     bool
	index     int // position in headers; assignments point at it
	lineStart int // offset of the line holding the header
	lineEnd   int // offset just past the header line's newline
	line      int
}

type assignment struct {
	path []string // table path and key parts
	// section is the index of the header above, -1 at the top level.
	section                                 int
	lineStart, valueStart, end, lineEnd, ln int
}

func scanDocument(path string, data []byte) (*document, error) {
	// The strict decoder reports a syntax error with its line and column; the
	// parser below would only give an offset.
	var probe map[string]any
	if _, err := DecodeLoose(path, data, &probe); err != nil {
		return nil, err
	}
	d := &document{path: path, data: data}
	p := unstable.Parser{}
	p.Reset(data)
	var table []string
	section := -1
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyParts(n)
			off := keyOffset(n)
			section = len(d.headers)
			d.headers = append(d.headers, header{path: table, array: n.Kind == unstable.ArrayTable, index: section,
				lineStart: lineStart(data, off), lineEnd: lineEnd(data, off), line: bytes.Count(data[:off], []byte("\n")) + 1})
		case unstable.KeyValue:
			start := int(n.Raw.Offset)
			end := start + int(n.Raw.Length)
			d.assigns = append(d.assigns, assignment{
				path: append(slices.Clone(table), keyParts(n)...), section: section,
				lineStart: lineStart(data, start), valueStart: valueStart(data, n), end: end, lineEnd: lineEnd(data, end),
				ln: bytes.Count(data[:start], []byte("\n")) + 1,
			})
		}
	}
	if err := p.Error(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// find returns the assignment of key outside arrays of tables.
func (d *document) find(key []string) (assignment, bool) {
	for _, a := range d.assigns {
		if slices.Equal(a.path, key) && (a.section < 0 || !d.headers[a.section].array) {
			return a, true
		}
	}
	return assignment{}, false
}

// checkNotInline refuses a key whose table is written as an inline value
// (compaction = { threshold = 0.5 }): TOML forbids adding to it from outside, and
// rewriting the inline table would change the user's layout.
func (d *document) checkNotInline(key []string) error {
	for _, a := range d.assigns {
		if len(a.path) < len(key) && slices.Equal(a.path, key[:len(a.path)]) {
			return &Error{Where: d.path, Line: a.ln, Key: strings.Join(key, "."),
				Msg: strings.Join(a.path, ".") + " is written here as one value: change it in the file by hand"}
		}
	}
	return nil
}

func (d *document) header(table []string) (header, bool) {
	for _, h := range d.headers {
		if !h.array && slices.Equal(h.path, table) {
			return h, true
		}
	}
	return header{}, false
}

func (d *document) dottedAtTop(table []string) bool {
	for _, a := range d.assigns {
		if a.section < 0 && len(a.path) > len(table) && slices.Equal(a.path[:len(table)], table) {
			return true
		}
	}
	return false
}

func (d *document) newline() string {
	if bytes.Contains(d.data, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// insertTopLevel adds line after the last top-level key; with none, before the
// first table and the comments written right above it, which describe that table.
func (d *document) insertTopLevel(line string) []byte {
	nl := d.newline()
	at := -1
	for _, a := range d.assigns {
		if a.section < 0 {
			at = a.lineEnd
		}
	}
	if at >= 0 {
		return d.insertLine(at, line)
	}
	if len(d.headers) == 0 {
		return d.appendLines(line)
	}
	at = d.headers[0].lineStart
	for at > 0 {
		prev := lineStart(d.data, at-1)
		if !bytes.HasPrefix(bytes.TrimLeft(d.data[prev:at], " \t"), []byte("#")) {
			break
		}
		at = prev
	}
	return splice(d.data, at, at, line+nl+nl)
}

// appendTable adds a new [table] holding line at the end, after a blank line.
func (d *document) appendTable(table []string, line string) []byte {
	nl := d.newline()
	head := "[" + strings.Join(table, ".") + "]" + nl + line
	if len(bytes.TrimSpace(d.data)) > 0 {
		head = nl + head
	}
	return d.appendLines(head)
}

func (d *document) appendLines(text string) []byte {
	nl := d.newline()
	out := slices.Clone(d.data)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, nl...)
	}
	return append(out, text+nl...)
}

// insertLine puts line at offset at, the start of a line or the end of data.
func (d *document) insertLine(at int, line string) []byte {
	nl := d.newline()
	if at == len(d.data) && at > 0 && d.data[at-1] != '\n' {
		line = nl + line
	}
	return splice(d.data, at, at, line+nl)
}

func splice(data []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(data)-(to-from)+len(text))
	out = append(out, data[:from]...)
	out = append(out, text...)
	return append(out, data[to:]...)
}

func keyOffset(n *unstable.Node) int {
	it := n.Key()
	if it.Next() {
		return int(it.Node().Raw.Offset)
	}
	return 0
}

// valueStart is the offset of the value: past the last key part, the spaces, the
// equals sign and the spaces after it.
func valueStart(data []byte, n *unstable.Node) int {
	end := 0
	it := n.Key()
	for it.Next() {
		r := it.Node().Raw
		end = int(r.Offset + r.Length)
	}
	for end < len(data) && (data[end] == ' ' || data[end] == '\t' || data[end] == '=') {
		end++
	}
	return end
}

func lineStart(data []byte, off int) int {
	return bytes.LastIndexByte(data[:off], '\n') + 1
}

// lineEnd is the offset just past the newline ending the line that holds off, or
// the end of data.
func lineEnd(data []byte, off int) int {
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(data)
}
