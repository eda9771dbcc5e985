package structured

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strings"
)

// jsonTypes are the names the "type" keyword accepts.
var jsonTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// The keywords whose value is checked, by the kind of value they take. Others
// (title, examples, unknown keywords...) are accepted as they are, as the
// meta-schema does.
var (
	subschemaKeywords = []string{"additionalProperties", "propertyNames", "unevaluatedProperties",
		"additionalItems", "contains", "unevaluatedItems", "not", "if", "then", "else", "contentSchema"}
	schemaMapKeywords   = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	schemaArrayKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	numberKeywords      = []string{"multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
	countKeywords       = []string{"minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains", "minProperties", "maxProperties"}
	stringKeywords      = []string{"$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$comment",
		"pattern", "format", "title", "description", "contentEncoding", "contentMediaType"}
	boolKeywords = []string{"uniqueItems", "deprecated", "readOnly", "writeOnly"}
)

// checker checks a decoded schema against the rules of the draft 2020-12 (and
// draft-07) meta-schemas that the validator library does not check itself: the
// kinds of keyword values, the names in "type", the regular expressions, and the
// local references. It speaks of the client's schema by JSON pointer.
type checker struct {
	root     map[string]any
	patterns map[string]*regexp.Regexp
	problems []Problem
	// inPlace maps each subschema (by JSON pointer) to the subschemas that apply to
	// the same value ($ref, allOf, not...), to refuse the cycles among them: the
	// library would recurse until the stack overflows, which kills the process.
	inPlace map[string][]string
}

func (c *checker) add(path []string, format string, args ...any) {
	c.problems = append(c.problems, Problem{Path: pointer(path), Message: fmt.Sprintf(format, args...)})
}

func at(path []string, tokens ...string) []string {
	return append(slices.Clip(path), tokens...)
}

// schema checks a subschema: an object or a boolean.
func (c *checker) schema(v any, path []string) {
	if len(c.problems) > maxProblems {
		return
	}
	m, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); !isBool {
			c.add(path, "got %s, want object or boolean", kindOf(v))
		}
		return
	}
	if len(path) > 512 {
		c.add(path, "the schema is nested too deeply")
		return
	}
	here := pointer(path)
	if c.inPlace == nil {
		c.inPlace = map[string][]string{}
	}
	c.inPlace[here] = nil
	for _, k := range []string{"not", "if", "then", "else"} {
		if _, ok := m[k]; ok {
			c.inPlace[here] = append(c.inPlace[here], pointer(at(path, k)))
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if a, ok := m[k].([]any); ok {
			for i := range a {
				c.inPlace[here] = append(c.inPlace[here], pointer(at(path, k, fmt.Sprint(i))))
			}
		}
	}
	if ds, ok := m["dependentSchemas"].(map[string]any); ok {
		for k := range ds {
			c.inPlace[here] = append(c.inPlace[here], pointer(at(path, "dependentSchemas", k)))
		}
	}
	if _, ok := m["$dynamicRef"]; ok {
		c.add(at(path, "$dynamicRef"), "$dynamicRef is not supported: use $ref")
	}
	if _, ok := m["$recursiveRef"]; ok {
		c.add(at(path, "$recursiveRef"), "$recursiveRef is not supported: use $ref")
	}
	if _, ok := m["$id"]; ok && len(path) > 0 {
		c.add(at(path, "$id"), "$id is only supported at the root of the schema: refer to subschemas with #/$defs/...")
	}
	if d, ok := m["$schema"].(string); ok && len(path) == 0 {
		if _, known := drafts[d]; !known {
			c.add(at(path, "$schema"), "unsupported draft %q: use %s (the default) or %s", d, draft2020, draft7)
		}
	}
	for _, k := range stringKeywords {
		if e, ok := m[k]; ok {
			if _, isString := e.(string); !isString {
				c.add(at(path, k), "got %s, want string", kindOf(e))
			}
		}
	}
	for _, k := range boolKeywords {
		if e, ok := m[k]; ok {
			if _, isBool := e.(bool); !isBool {
				c.add(at(path, k), "got %s, want boolean", kindOf(e))
			}
		}
	}
	for _, k := range numberKeywords {
		if e, ok := m[k]; ok {
			n, isNumber := e.(json.Number)
			switch {
			case !isNumber:
				c.add(at(path, k), "got %s, want number", kindOf(e))
			case k == "multipleOf":
				if r, ok := new(big.Rat).SetString(string(n)); !ok || r.Sign() <= 0 {
					c.add(at(path, k), "must be > 0 but found %s", n)
				}
			}
		}
	}
	for _, k := range countKeywords {
		if e, ok := m[k]; ok {
			c.count(e, at(path, k))
		}
	}
	if t, ok := m["type"]; ok {
		c.typeKeyword(t, at(path, "type"))
	}
	if p, ok := m["pattern"].(string); ok {
		c.pattern(p, at(path, "pattern"))
	}
	if r, ok := m["$ref"].(string); ok {
		c.ref(r, at(path, "$ref"))
	}
	if e, ok := m["required"]; ok {
		c.stringArray(e, at(path, "required"))
	}
	if e, ok := m["enum"]; ok {
		if _, isArray := e.([]any); !isArray {
			c.add(at(path, "enum"), "got %s, want array", kindOf(e))
		}
	}
	if e, ok := m["dependentRequired"]; ok {
		if dm, isObject := e.(map[string]any); isObject {
			for _, k := range sortedKeys(dm) {
				c.stringArray(dm[k], at(path, "dependentRequired", k))
			}
		} else {
			c.add(at(path, "dependentRequired"), "got %s, want object", kindOf(e))
		}
	}
	if e, ok := m["dependencies"]; ok { // draft-07
		if dm, isObject := e.(map[string]any); isObject {
			for _, k := range sortedKeys(dm) {
				if _, isArray := dm[k].([]any); isArray {
					c.stringArray(dm[k], at(path, "dependencies", k))
				} else {
					c.schema(dm[k], at(path, "dependencies", k))
				}
			}
		} else {
			c.add(at(path, "dependencies"), "got %s, want object", kindOf(e))
		}
	}
	if e, ok := m["items"]; ok {
		if a, isArray := e.([]any); isArray { // draft-07's tuple form
			for i, s := range a {
				c.schema(s, at(path, "items", fmt.Sprint(i)))
			}
		} else {
			c.schema(e, at(path, "items"))
		}
	}
	for _, k := range subschemaKeywords {
		if e, ok := m[k]; ok {
			c.schema(e, at(path, k))
		}
	}
	for _, k := range schemaArrayKeywords {
		if e, ok := m[k]; ok {
			a, isArray := e.([]any)
			if !isArray || len(a) == 0 && k != "prefixItems" {
				c.add(at(path, k), "got %s, want a non-empty array of schemas", describe(e))
				continue
			}
			for i, s := range a {
				c.schema(s, at(path, k, fmt.Sprint(i)))
			}
		}
	}
	for _, k := range schemaMapKeywords {
		if e, ok := m[k]; ok {
			sm, isObject := e.(map[string]any)
			if !isObject {
				c.add(at(path, k), "got %s, want object", kindOf(e))
				continue
			}
			for _, name := range sortedKeys(sm) {
				if k == "patternProperties" {
					c.pattern(name, at(path, k, name))
				}
				c.schema(sm[name], at(path, k, name))
			}
		}
	}
}

func describe(v any) string {
	if a, ok := v.([]any); ok && len(a) == 0 {
		return "an empty array"
	}
	return kindOf(v)
}

// count checks a non-negative integer keyword; the library holds them as int32.
func (c *checker) count(v any, path []string) {
	n, ok := v.(json.Number)
	if !ok {
		c.add(path, "got %s, want integer", kindOf(v))
		return
	}
	r, ok := new(big.Rat).SetString(string(n))
	switch {
	case !ok || !r.IsInt():
		c.add(path, "got number, want integer")
	case r.Sign() < 0:
		c.add(path, "must be >= 0 but found %s", n)
	case r.Cmp(new(big.Rat).SetInt64(math.MaxInt32)) > 0:
		c.add(path, "must be <= %d but found %s", math.MaxInt32, n)
	}
}

func (c *checker) typeKeyword(v any, path []string) {
	names := "value must be one of " + quoteAll(jsonTypes)
	switch t := v.(type) {
	case string:
		if !slices.Contains(jsonTypes, t) {
			c.add(path, "%s", names)
		}
	case []any:
		seen := map[string]bool{}
		for i, e := range t {
			s, ok := e.(string)
			if !ok || !slices.Contains(jsonTypes, s) {
				c.add(at(path, fmt.Sprint(i)), "%s", names)
			} else if seen[s] {
				c.add(path, "items at %d and another are equal", i)
			}
			seen[s] = true
		}
	default:
		c.add(path, "got %s, want string or array", kindOf(v))
	}
}

func (c *checker) stringArray(v any, path []string) {
	a, ok := v.([]any)
	if !ok {
		c.add(path, "got %s, want array of strings", kindOf(v))
		return
	}
	for i, e := range a {
		if _, isString := e.(string); !isString {
			c.add(at(path, fmt.Sprint(i)), "got %s, want string", kindOf(e))
		}
	}
}

func (c *checker) pattern(p string, path []string) {
	if _, done := c.patterns[p]; done {
		return
	}
	re, err := regexp.Compile(p)
	if err != nil {
		c.add(path, "invalid pattern %q: %v", p, err)
		return
	}
	c.patterns[p] = re
}

// ref checks a reference: it must point inside the schema, by JSON pointer
// ("#/$defs/a") or by $anchor ("#a"), and lead somewhere.
func (c *checker) ref(r string, path []string) {
	target, ok := localRef(c.root, r)
	if !ok {
		c.add(path, "%v (%s): put the definition under $defs", errExternalRef, r)
		return
	}
	if _, found := lookup(c.root, target); !found {
		c.add(path, "reference %s not found in the schema", r)
		return
	}
	here := pointer(path[:len(path)-1])
	if frag, err := url2fragment(target); err == nil && (frag == "" || frag[0] == '/') {
		c.inPlace[here] = append(c.inPlace[here], frag)
	} else if p, ok := anchorPath(c.root, frag); ok {
		c.inPlace[here] = append(c.inPlace[here], p)
	}
}

// localRef returns r as a "#..." reference when it points inside root: it starts
// with '#', or with root's own $id.
func localRef(root map[string]any, r string) (string, bool) {
	if strings.HasPrefix(r, "#") {
		return r, true
	}
	if id, ok := root["$id"].(string); ok && id != "" {
		id = strings.TrimSuffix(id, "#")
		if rest, found := strings.CutPrefix(r, id); found && (rest == "" || rest[0] == '#') {
			return "#" + strings.TrimPrefix(rest, "#"), true
		}
	}
	return "", false
}

// cycle reports a loop of subschemas that apply to the same value.
func (c *checker) cycle() {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var loop string
	var visit func(n string) bool
	visit = func(n string) bool {
		switch state[n] {
		case open:
			loop = n
			return true
		case done:
			return false
		}
		state[n] = open
		for _, next := range c.inPlace[n] {
			if visit(next) {
				return true
			}
		}
		state[n] = done
		return false
	}
	for _, n := range slices.Sorted(maps.Keys(c.inPlace)) {
		if visit(n) {
			if loop == "" {
				loop = "/"
			}
			c.add(nil, "the schema refers to itself without going into the value (a $ref cycle through %s): validation would never end", loop)
			return
		}
	}
}

// lookup follows a "#/a/b" reference from root.
func lookup(root map[string]any, ref string) (any, bool) {
	frag, err := url2fragment(ref)
	if err != nil {
		return nil, false
	}
	var cur any = root
	if frag == "" {
		return cur, true
	}
	if frag[0] != '/' {
		p, ok := anchorPath(root, frag)
		if !ok {
			return nil, false
		}
		frag = p
		if frag == "" {
			return cur, true
		}
	}
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			e, ok := v[tok]
			if !ok {
				return nil, false
			}
			cur = e
		case []any:
			var i int
			if _, err := fmt.Sscan(tok, &i); err != nil || i < 0 || i >= len(v) || fmt.Sprint(i) != tok {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// anchorPath finds the subschema that declares "$anchor": name, as a JSON pointer.
func anchorPath(root map[string]any, name string) (string, bool) {
	var found string
	var ok bool
	var walk func(v any, path []string)
	walk = func(v any, path []string) {
		if ok || len(path) > 512 {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			if a, isString := v["$anchor"].(string); isString && a == name {
				found, ok = pointer(path), true
				return
			}
			for _, k := range sortedKeys(v) {
				if k == "enum" || k == "const" || k == "default" || k == "examples" {
					continue
				}
				walk(v[k], at(path, k))
			}
		case []any:
			for i, e := range v {
				walk(e, at(path, fmt.Sprint(i)))
			}
		}
	}
	walk(root, nil)
	return found, ok
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, ", ")
}
