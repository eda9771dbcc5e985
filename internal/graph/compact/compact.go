// Package compact reshapes a code graph answer for agents that count tokens:
// item lists as qualified names only (detail ids) or as one tab-separated line
// per item (format tabular), the rest of the answer (certainty, why, paging)
// kept, since it is what makes a short answer trustworthy.
package compact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Shape chooses how compact an answer is (the peer's detail and format
// parameters, its "token surface"). The zero value leaves answers as they are.
type Shape struct {
	// Detail is full (or empty) or ids: every item list becomes its items'
	// qualified names.
	Detail string
	// Format is json (or empty) or tabular: every item list becomes one string,
	// a header line of column names then one tab-separated line per item.
	Format string
}

// Check rejects values other than those above, naming the parameter.
func (p Shape) Check() error {
	switch p.Detail {
	case "", "full", "ids":
	default:
		return fmt.Errorf("detail %q: want full or ids", p.Detail)
	}
	switch p.Format {
	case "", "json", "tabular":
	default:
		return fmt.Errorf("format %q: want json or tabular", p.Format)
	}
	return nil
}

// Compact reports whether the shape changes anything.
func (p Shape) Compact() bool { return p.Detail == "ids" || p.Format == "tabular" }

// listKeys name the lists of items (objects with a qualified_name) an answer
// may hold, at any depth (get_symbol's sections, a community's members).
var listKeys = map[string]bool{"items": true, "targets": true, "definitions": true, "members": true, "changed": true}

// columnOrder is the order of an Item's fields; other keys follow, sorted.
var columnOrder = []string{"qualified_name", "kind", "file", "line", "site_file", "site_line", "more_sites",
	"relation", "confidence", "resolution", "hop", "via", "why"}

// Apply reshapes out (any answer) through its JSON form: item lists become names
// (ids) or tab-separated lines (tabular); query_graph's rows likewise; the
// freshness block keeps its status and count. Certainty, why and the page stay:
// they are what makes the short answer trustworthy.
func (p Shape) Apply(out any) any {
	if !p.Compact() {
		return out
	}
	b, err := json.Marshal(out)
	if err != nil {
		return out // encode reports the same error with its context
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return out // not an object: nothing to reshape
	}
	p.reshape(m)
	if cols, ok := m["columns"].([]any); ok {
		if rows, ok := m["rows"].([]any); ok {
			p.reshapeRows(m, cols, rows)
		}
	}
	return m
}

func (p Shape) reshape(m map[string]any) {
	for k, v := range m {
		switch v := v.(type) {
		case map[string]any:
			if k == "freshness" {
				m[k] = map[string]any{"status": v["status"], "dirty_count": v["dirty_count"]}
				continue
			}
			p.reshape(v)
		case []any:
			if listKeys[k] && isItemList(v) {
				m[k] = p.list(v)
				continue
			}
			for _, e := range v {
				if sub, ok := e.(map[string]any); ok {
					p.reshape(sub)
				}
			}
		}
	}
}

func isItemList(v []any) bool {
	for _, e := range v {
		o, ok := e.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := o["qualified_name"]; !ok {
			return false
		}
	}
	return true
}

// list reshapes one item list.
func (p Shape) list(v []any) any {
	rows := make([]map[string]any, len(v))
	for i, e := range v {
		rows[i] = e.(map[string]any)
	}
	if p.Detail == "ids" {
		names := make([]any, len(rows))
		for i, r := range rows {
			names[i] = r["qualified_name"]
		}
		if p.Format != "tabular" {
			return names
		}
		rows = make([]map[string]any, len(names))
		for i, n := range names {
			rows[i] = map[string]any{"qualified_name": n}
		}
	}
	cols := columns(rows)
	var sb strings.Builder
	sb.WriteString(strings.Join(cols, "\t"))
	for _, r := range rows {
		sb.WriteByte('\n')
		for j, c := range cols {
			if j > 0 {
				sb.WriteByte('\t')
			}
			if v, ok := r[c]; ok {
				sb.WriteString(cell(v))
			}
		}
	}
	return sb.String()
}

// columns are the keys the rows use, in columnOrder then sorted.
func columns(rows []map[string]any) []string {
	used := map[string]bool{}
	for _, r := range rows {
		for k := range r {
			used[k] = true
		}
	}
	var cols []string
	for _, c := range columnOrder {
		if used[c] {
			cols = append(cols, c)
			delete(used, c)
		}
	}
	var rest []string
	for k := range used {
		rest = append(rest, k)
	}
	slices.Sort(rest)
	return append(cols, rest...)
}

// cell writes one value on one line: lists joined by commas, objects as JSON,
// tabs and line breaks as spaces (they would break the table).
func cell(v any) string {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case json.Number:
		s = v.String()
	case nil:
		s = ""
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = cell(e)
		}
		s = strings.Join(parts, ",")
	default:
		b, _ := json.Marshal(v)
		s = string(b)
	}
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}

// reshapeRows shapes query_graph's rows: ids keeps the first column; tabular
// makes the rows one string, the header line first.
func (p Shape) reshapeRows(m map[string]any, cols, rows []any) {
	if p.Detail == "ids" && len(cols) > 0 {
		cols = cols[:1]
		for i, r := range rows {
			if cells, ok := r.([]any); ok && len(cells) > 0 {
				rows[i] = []any{cells[0]}
			}
		}
		m["columns"], m["rows"] = cols, rows
	}
	if p.Format != "tabular" {
		return
	}
	var sb strings.Builder
	for j, c := range cols {
		if j > 0 {
			sb.WriteByte('\t')
		}
		sb.WriteString(cell(c))
	}
	for _, r := range rows {
		sb.WriteByte('\n')
		cells, _ := r.([]any)
		for j, c := range cells {
			if j > 0 {
				sb.WriteByte('\t')
			}
			sb.WriteString(cell(c))
		}
	}
	// The header is the table's first line: columns would repeat it.
	delete(m, "columns")
	m["rows"] = sb.String()
}
