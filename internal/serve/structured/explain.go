package structured

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// explainer lists where and why a value fails a schema, walking the decoded schema
// and the value together. It covers the keywords agents trip on (types, required and
// extra properties, enums, bounds, lengths, patterns, items, combinators, local
// references); the library's verdict stays the authority (see Schema.Validate).
type explainer struct {
	root     map[string]any
	patterns map[string]*regexp.Regexp
}

// maxDepth bounds the walk, against reference cycles that do not consume the value.
const maxDepth = 64

func (x *explainer) walk(schema, v any, path []string, depth int) []Problem {
	if depth > maxDepth {
		return nil
	}
	var out []Problem
	add := func(format string, args ...any) {
		out = append(out, Problem{Path: pointer(path), Message: fmt.Sprintf(format, args...)})
	}
	switch s := schema.(type) {
	case bool:
		if !s {
			add("no value is allowed here")
		}
		return out
	case map[string]any:
		schema = s
	default:
		return nil
	}
	s := schema.(map[string]any)
	if r, ok := s["$ref"].(string); ok {
		if local, ok := localRef(x.root, r); ok {
			if target, ok := lookup(x.root, local); ok {
				out = append(out, x.walk(target, v, path, depth+1)...)
			}
		}
	}
	// type
	if t, ok := s["type"]; ok {
		got := typeOf(v)
		var want []string
		switch t := t.(type) {
		case string:
			want = []string{t}
		case []any:
			for _, e := range t {
				if n, ok := e.(string); ok {
					want = append(want, n)
				}
			}
		}
		if !slices.Contains(want, got) && !(got == "integer" && slices.Contains(want, "number")) {
			add("got %s, want %s", got, strings.Join(want, " or "))
			return out // the other keywords would only repeat it
		}
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(a any) bool { return equal(a, v) }) {
		add("value must be one of %s", joinValues(e))
	}
	if c, ok := s["const"]; ok && !equal(c, v) {
		add("value must be %s", show(c))
	}
	if n, ok := v.(json.Number); ok {
		x.number(s, n, add)
	}
	if str, ok := v.(string); ok {
		n := utf8.RuneCountInString(str)
		if m, ok := count(s["minLength"]); ok && n < m {
			add("length must be >= %d, but got %d", m, n)
		}
		if m, ok := count(s["maxLength"]); ok && n > m {
			add("length must be <= %d, but got %d", m, n)
		}
		if p, ok := s["pattern"].(string); ok {
			if re := x.patterns[p]; re != nil && !re.MatchString(str) {
				add("%s does not match pattern %s", show(str), show(p))
			}
		}
	}
	if a, ok := v.([]any); ok {
		out = append(out, x.array(s, a, path, depth)...)
	}
	if o, ok := v.(map[string]any); ok {
		out = append(out, x.object(s, o, path, depth)...)
	}
	// combinators
	if all, ok := s["allOf"].([]any); ok {
		for _, sub := range all {
			out = append(out, x.walk(sub, v, path, depth+1)...)
		}
	}
	if anyOf, ok := s["anyOf"].([]any); ok && !slices.ContainsFunc(anyOf, func(sub any) bool { return x.valid(sub, v, depth) }) {
		add("does not match any of the anyOf schemas")
	}
	if oneOf, ok := s["oneOf"].([]any); ok {
		var matched []string
		for i, sub := range oneOf {
			if x.valid(sub, v, depth) {
				matched = append(matched, fmt.Sprint(i))
			}
		}
		switch len(matched) {
		case 0:
			add("does not match any of the oneOf schemas")
		case 1:
		default:
			add("matches the oneOf schemas %s, want exactly one", strings.Join(matched, " and "))
		}
	}
	if not, ok := s["not"]; ok && x.valid(not, v, depth) {
		add("must not match the schema under 'not'")
	}
	if cond, ok := s["if"]; ok {
		branch := "else"
		if x.valid(cond, v, depth) {
			branch = "then"
		}
		if sub, ok := s[branch]; ok {
			out = append(out, x.walk(sub, v, path, depth+1)...)
		}
	}
	return out
}

func (x *explainer) valid(schema, v any, depth int) bool {
	return len(x.walk(schema, v, nil, depth+1)) == 0
}

func (x *explainer) number(s map[string]any, n json.Number, add func(string, ...any)) {
	v, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return
	}
	bound := func(k string) (*big.Rat, json.Number, bool) {
		b, ok := s[k].(json.Number)
		if !ok {
			return nil, "", false
		}
		r, ok := new(big.Rat).SetString(string(b))
		return r, b, ok
	}
	if r, b, ok := bound("minimum"); ok && v.Cmp(r) < 0 {
		add("minimum: got %s, want >= %s", n, b)
	}
	if r, b, ok := bound("maximum"); ok && v.Cmp(r) > 0 {
		add("maximum: got %s, want <= %s", n, b)
	}
	if r, b, ok := bound("exclusiveMinimum"); ok && v.Cmp(r) <= 0 {
		add("exclusiveMinimum: got %s, want > %s", n, b)
	}
	if r, b, ok := bound("exclusiveMaximum"); ok && v.Cmp(r) >= 0 {
		add("exclusiveMaximum: got %s, want < %s", n, b)
	}
	if r, b, ok := bound("multipleOf"); ok && r.Sign() > 0 && !new(big.Rat).Quo(v, r).IsInt() {
		add("multipleOf: got %s, want a multiple of %s", n, b)
	}
}

func (x *explainer) array(s map[string]any, a []any, path []string, depth int) []Problem {
	var out []Problem
	add := func(format string, args ...any) {
		out = append(out, Problem{Path: pointer(path), Message: fmt.Sprintf(format, args...)})
	}
	if m, ok := count(s["minItems"]); ok && len(a) < m {
		add("minItems: got %d items, want at least %d", len(a), m)
	}
	if m, ok := count(s["maxItems"]); ok && len(a) > m {
		add("maxItems: got %d items, want at most %d", len(a), m)
	}
	if u, _ := s["uniqueItems"].(bool); u {
	dup:
		for i := range a {
			for j := i + 1; j < len(a); j++ {
				if equal(a[i], a[j]) {
					add("items at %d and %d are equal", i, j)
					break dup
				}
			}
		}
	}
	prefix, _ := s["prefixItems"].([]any)
	items := s["items"]
	if tuple, ok := items.([]any); ok { // draft-07
		prefix, items = tuple, s["additionalItems"]
	}
	for i, e := range a {
		sub := items
		if i < len(prefix) {
			sub = prefix[i]
		}
		if sub != nil {
			out = append(out, x.walk(sub, e, at(path, fmt.Sprint(i)), depth+1)...)
		}
	}
	if contains, ok := s["contains"]; ok {
		n := 0
		for _, e := range a {
			if x.valid(contains, e, depth) {
				n++
			}
		}
		minC, ok := count(s["minContains"])
		if !ok {
			minC = 1
		}
		if n < minC {
			add("contains: %d items match the 'contains' schema, want at least %d", n, minC)
		}
		if m, ok := count(s["maxContains"]); ok && n > m {
			add("maxContains: %d items match the 'contains' schema, want at most %d", n, m)
		}
	}
	return out
}

func (x *explainer) object(s map[string]any, o map[string]any, path []string, depth int) []Problem {
	var out []Problem
	add := func(format string, args ...any) {
		out = append(out, Problem{Path: pointer(path), Message: fmt.Sprintf(format, args...)})
	}
	if req, ok := s["required"].([]any); ok {
		var missing []string
		for _, r := range req {
			if name, ok := r.(string); ok {
				if _, present := o[name]; !present {
					missing = append(missing, name)
				}
			}
		}
		switch len(missing) {
		case 0:
		case 1:
			add("missing property %s", quoteAll(missing))
		default:
			add("missing properties %s", quoteAll(missing))
		}
	}
	if m, ok := count(s["minProperties"]); ok && len(o) < m {
		add("minProperties: got %d properties, want at least %d", len(o), m)
	}
	if m, ok := count(s["maxProperties"]); ok && len(o) > m {
		add("maxProperties: got %d properties, want at most %d", len(o), m)
	}
	if dr, ok := s["dependentRequired"].(map[string]any); ok {
		for _, name := range sortedKeys(dr) {
			if _, present := o[name]; !present {
				continue
			}
			deps, _ := dr[name].([]any)
			for _, d := range deps {
				if dn, ok := d.(string); ok {
					if _, present := o[dn]; !present {
						add("property %s requires property %s", show(name), show(dn))
					}
				}
			}
		}
	}
	props, _ := s["properties"].(map[string]any)
	patterns, _ := s["patternProperties"].(map[string]any)
	additional, hasAdditional := s["additionalProperties"]
	var extra []string
	for _, name := range sortedKeys(o) {
		evaluated := false
		if sub, ok := props[name]; ok {
			evaluated = true
			out = append(out, x.walk(sub, o[name], at(path, name), depth+1)...)
		}
		for _, p := range sortedKeys(patterns) {
			if re := x.patterns[p]; re != nil && re.MatchString(name) {
				evaluated = true
				out = append(out, x.walk(patterns[p], o[name], at(path, name), depth+1)...)
			}
		}
		if !evaluated && hasAdditional {
			if b, ok := additional.(bool); ok && !b {
				extra = append(extra, name)
			} else {
				out = append(out, x.walk(additional, o[name], at(path, name), depth+1)...)
			}
		}
		if pn, ok := s["propertyNames"]; ok && !x.valid(pn, name, depth) {
			add("property name %s does not match the propertyNames schema", show(name))
		}
	}
	if len(extra) > 0 {
		add("additional properties %s not allowed", quoteAll(extra))
	}
	if ds, ok := s["dependentSchemas"].(map[string]any); ok {
		for _, name := range sortedKeys(ds) {
			if _, present := o[name]; present {
				out = append(out, x.walk(ds[name], o, path, depth+1)...)
			}
		}
	}
	return out
}

// count reads a non-negative integer keyword (checked by the checker).
func count(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return int(i), err == nil
}

// typeOf names v's JSON type; a number with no fractional part is an integer.
func typeOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(v)); ok && r.IsInt() {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	default:
		return "object"
	}
}

// equal compares two decoded JSON values; numbers by value (1 equals 1.0).
func equal(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		ra, ok1 := new(big.Rat).SetString(string(a))
		rb, ok2 := new(big.Rat).SetString(string(bn))
		return ok1 && ok2 && ra.Cmp(rb) == 0
	case []any:
		bs, ok := b.([]any)
		return ok && slices.EqualFunc(a, bs, equal)
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func joinValues(vs []any) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = show(v)
	}
	return strings.Join(s, ", ")
}

// url2fragment returns the unescaped fragment of a reference such as "#/$defs/a%20b".
func url2fragment(ref string) (string, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	return u.Fragment, nil
}
