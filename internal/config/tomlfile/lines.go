package tomlfile

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Lines maps a key path to the 1-based line where its value is written. Paths join
// key parts with dots; an element of an array of tables (or of an inline array) adds
// its index, so the third [[models]] entry's name is "models[2].name".
type Lines map[string]int

// Line returns the line of path or, when path itself is not written in the file (a
// default filled in, a renamed key), of its nearest written ancestor; 0 if none is.
func (l Lines) Line(path string) int {
	for path != "" {
		if n, ok := l[path]; ok {
			return n
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			return 0
		}
		path = path[:i]
	}
	return 0
}

// indexLines walks the document's syntax tree. It runs only on documents that decoded
// without error, so the parser cannot fail here; if it did, the index is just partial.
func indexLines(data []byte) Lines {
	lines := Lines{}
	p := unstable.Parser{}
	p.Reset(data)
	var table string
	arrays := map[string]int{}
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Table:
			table = joinKey(keyParts(n), arrays)
			lines[table] = keyLine(&p, n)
		case unstable.ArrayTable:
			parts := keyParts(n)
			prefix := joinKey(parts[:len(parts)-1], arrays)
			base := joinPath(prefix, parts[len(parts)-1])
			i := arrays[base]
			arrays[base] = i + 1
			table = base + "[" + strconv.Itoa(i) + "]"
			lines[table] = keyLine(&p, n)
		case unstable.KeyValue:
			indexKeyValue(&p, n, table, lines)
		}
	}
	return lines
}

func indexKeyValue(p *unstable.Parser, n *unstable.Node, prefix string, lines Lines) {
	path := joinPath(prefix, strings.Join(keyParts(n), "."))
	lines[path] = keyLine(p, n)
	indexValue(p, n.Value(), path, lines)
}

func indexValue(p *unstable.Parser, v *unstable.Node, path string, lines Lines) {
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			indexKeyValue(p, it.Node(), path, lines)
		}
	case unstable.Array:
		it := v.Children()
		for i := 0; it.Next(); i++ {
			el := it.Node()
			if el.Kind == unstable.InlineTable {
				elPath := path + "[" + strconv.Itoa(i) + "]"
				lines[elPath] = lines[path]
				indexValue(p, el, elPath, lines)
			}
		}
	}
}

// keyLine is the line of the first key part: values can span lines, keys cannot.
func keyLine(p *unstable.Parser, n *unstable.Node) int {
	it := n.Key()
	if it.Next() && it.Node().Raw.Length > 0 {
		return p.Shape(it.Node().Raw).Start.Line
	}
	return 0
}

func keyParts(n *unstable.Node) []string {
	var parts []string
	it := n.Key()
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// joinKey turns a table header into a path, pointing each array-of-tables part at its
// latest element, which is the one TOML attaches a sub-table header to.
func joinKey(parts []string, arrays map[string]int) string {
	path := ""
	for _, part := range parts {
		path = joinPath(path, part)
		if n, ok := arrays[path]; ok {
			path += "[" + strconv.Itoa(n-1) + "]"
		}
	}
	return path
}

func joinPath(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}
