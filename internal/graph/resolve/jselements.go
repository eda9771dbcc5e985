package resolve

import (
	"strings"
)

// Element types: a callback passed to a built-in container's iteration method
// gets the container's element as its parameter. The extractor writes the
// callback's untyped parameter j as the path `x.forEach.(i,j)`; on a field or
// variable declared `T[]`, `Array<T>`, `Set<T>` or `Map<K, V>`, (0,0) is T (V),
// and for a Map's or Set's forEach, (0,1) is K (T).

// iterationMethods are the methods whose first argument is a callback taking
// an element first.
var iterationMethods = map[string]bool{
	"forEach": true, "map": true, "filter": true, "find": true, "findIndex": true, "findLast": true,
	"findLastIndex": true, "some": true, "every": true, "flatMap": true,
}

// iterating is the lookup for `x.m` when m iterates the container x's
// declaration names.
func iterating(l lookup, name string) (lookup, bool) {
	if !iterationMethods[name] {
		return lookup{}, false
	}
	if _, elem, _ := tsContainer(tsAnnotation(l.node)); elem == "" {
		return lookup{}, false
	}
	return lookup{node: l.node, status: found, choice: l.choice, iterates: name}, true
}

// elementParam follows `(i,j)`, a parameter of the callback given to an
// iteration method, to the container's element type.
func (v *view) elementParam(l lookup, name string, d *deps, depth int) lookup {
	i, j, ok := callbackParam(name)
	if !ok || i != 0 {
		return lookup{status: unknown, reason: "not a parameter of " + l.iterates + "'s callback"}
	}
	kind, elem, key := tsContainer(tsAnnotation(l.node))
	t := ""
	switch {
	case j == 0:
		t = elem
	case j == 1 && l.iterates == "forEach" && kind == "map":
		t = key
	case j == 1 && l.iterates == "forEach" && kind == "set":
		t = elem
	}
	if t = tsTypePath(t); t == "" {
		return lookup{status: unknown, reason: "parameter " + name + " of " + l.iterates + " has no named type"}
	}
	return v.jsPath(l.node.File, t, d, depth+1)
}

// tsContainer reads an annotation naming a built-in container: its kind
// (array, set, map), its element type (a map's value) and a map's key type.
func tsContainer(a string) (kind, elem, key string) {
	a = strings.TrimSpace(a)
	if before, _, found := strings.Cut(a, " = "); found { // `x: T[] = []`
		a = strings.TrimSpace(before)
	}
	if parts := splitTopLevel(a, '|'); len(parts) > 1 {
		one := ""
		for _, p := range parts {
			if p = strings.TrimSpace(p); p == "undefined" || p == "null" {
				continue
			}
			if one != "" {
				return "", "", ""
			}
			one = p
		}
		a = one
	}
	a = strings.TrimPrefix(a, "readonly ")
	if t, ok := strings.CutSuffix(a, "[]"); ok {
		return "array", t, ""
	}
	open := strings.IndexByte(a, '<')
	if open < 0 || closing(a, open) != len(a)-1 {
		return "", "", ""
	}
	args := splitTopLevel(a[open+1:len(a)-1], ',')
	switch a[:open] {
	case "Array", "ReadonlyArray":
		if len(args) == 1 {
			return "array", strings.TrimSpace(args[0]), ""
		}
	case "Set", "ReadonlySet":
		if len(args) == 1 {
			return "set", strings.TrimSpace(args[0]), ""
		}
	case "Map", "ReadonlyMap":
		if len(args) == 2 {
			return "map", strings.TrimSpace(args[1]), strings.TrimSpace(args[0])
		}
	}
	return "", "", ""
}
