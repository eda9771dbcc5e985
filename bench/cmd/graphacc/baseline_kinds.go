package main

import (
	"context"
	"regexp"
	"strings"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// Patterns the baseline greps with. callName finds `name(` and `name[T](` in a
// body; goMethod and goReceiver read `func (r *T) Name(` lines.
var (
	callName   = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]\n]*\])?\s*\(`)
	methodLine = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
	goReceiver = regexp.MustCompile(`func\s*\(\s*(?:[A-Za-z_][A-Za-z0-9_]*\s+)?\*?\s*([A-Za-z_][A-Za-z0-9_]*)`)
	goMethodOf = regexp.MustCompile(`func\s*\([^)]*\)\s*([A-Za-z_][A-Za-z0-9_]*)`)
	heritage   = regexp.MustCompile(`\b(?:implements|extends)\b([^{]*)`)
	pyBases    = regexp.MustCompile(`^\s*class\s+\w+\s*\(([^)]*)\)`)
	identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
)

// isComment says a hit's line is a comment, which an agent skips at a glance.
func isComment(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*")
}

// answer runs the baseline procedure for one question and returns its answer and
// the characters it read.
func (b *baseline) answer(ctx context.Context, kind string, d truth.Definition) ([]Item, int, error) {
	file, line, _ := truth.SplitKey(d.Key)
	switch kind {
	case Callers:
		return b.callers(ctx, d, file, line)
	case Callees:
		items, cost := b.callees(d, file, line)
		return items, cost, nil
	case References:
		return b.references(ctx, d, file, line)
	case Implementations:
		return b.implementations(ctx, d, file, line)
	case Interfaces:
		return b.interfaces(ctx, d, file, line)
	}
	return nil, 0, nil
}

// callers: grep the name as a word; keep the hits that call it (`name(`) outside
// comments; open each enclosing function once. The answer is those functions.
func (b *baseline) callers(ctx context.Context, d truth.Definition, file string, line int) ([]Item, int, error) {
	hits, cost, err := b.rg(ctx, d.Name, true)
	if err != nil {
		return nil, 0, err
	}
	isCall := regexp.MustCompile(`\b` + regexp.QuoteMeta(d.Name) + `\s*(?:\[[^\]]*\])?\s*\(`)
	found := map[string]Item{}
	for _, h := range hits {
		if (h.path == file && h.line == line) || isComment(h.text) || !isCall.MatchString(h.text) {
			continue
		}
		t, ok := b.enclosing(h.path, h.line, b.lang.funcs)
		if !ok {
			continue
		}
		k := truth.Key(t.Path, t.Line)
		if _, seen := found[k]; !seen {
			_, n := b.read(t.Path, t.Line, t.End)
			cost += n
			found[k] = tagItem(t)
		}
	}
	return sortedItems(found), cost, nil
}

// callees: look the symbol up in the tags, read its body, take every identifier
// followed by `(` (keywords and builtins aside) and look each up in the tags.
// The answer is every function or method of those names.
func (b *baseline) callees(d truth.Definition, file string, line int) ([]Item, int) {
	_, cost := b.lookup(d.Name, b.lang.callables)
	t, ok := b.tagAt(file, line, d.Name)
	if !ok {
		return nil, cost
	}
	body, n := b.read(t.Path, t.Line, t.End)
	cost += n
	if len(body) < 2 {
		return nil, cost
	}
	found := map[string]Item{}
	looked := map[string]bool{}
	for _, m := range callName.FindAllStringSubmatch(strings.Join(body[1:], "\n"), -1) {
		name := m[1]
		if looked[name] || b.lang.keywords[name] {
			continue
		}
		looked[name] = true
		tags, c := b.lookup(name, b.lang.callables)
		cost += c
		for _, t := range tags {
			found[truth.Key(t.Path, t.Line)] = tagItem(t)
		}
	}
	return sortedItems(found), cost
}

// references: grep the name as a word and open the definition enclosing each
// hit outside comments once (a hit outside any definition is the file's).
func (b *baseline) references(ctx context.Context, d truth.Definition, file string, line int) ([]Item, int, error) {
	hits, cost, err := b.rg(ctx, d.Name, true)
	if err != nil {
		return nil, 0, err
	}
	found := map[string]Item{}
	for _, h := range hits {
		if (h.path == file && h.line == line) || isComment(h.text) {
			continue
		}
		t, ok := b.enclosing(h.path, h.line, nil)
		if !ok {
			found[h.path] = Item{Kind: "file", File: h.path, SiteFile: h.path, SiteLine: h.line}
			continue
		}
		k := truth.Key(t.Path, t.Line)
		if _, seen := found[k]; !seen {
			_, n := b.read(t.Path, t.Line, t.End)
			cost += n
			found[k] = tagItem(t)
		}
	}
	return sortedItems(found), cost, nil
}

// implementations of an interface. Go: read the interface, grep
// `func (…) Method(` for each of its methods, keep the receiver types that have
// them all. TypeScript and Python: grep the declarations that name it as a base
// (`implements`/`extends`, `class X(…Name…)`), then the same for what was found.
func (b *baseline) implementations(ctx context.Context, d truth.Definition, file string, line int) ([]Item, int, error) {
	_, cost := b.lookup(d.Name, b.lang.ifaces)
	if b.lang.rgType != "go" {
		items, n, err := b.subclasses(ctx, d.Name)
		return items, cost + n, err
	}
	t, ok := b.tagAt(file, line, d.Name)
	if !ok {
		return nil, cost, nil
	}
	body, n := b.read(t.Path, t.Line, t.End)
	cost += n
	var common map[string]bool
	for _, l := range body[min(1, len(body)):] {
		m := methodLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		hits, c, err := b.rg(ctx, `func\s*\([^)]*\)\s*`+m[1]+`\s*(\[[^\]]*\])?\(`, false)
		if err != nil {
			return nil, 0, err
		}
		cost += c
		have := map[string]bool{}
		for _, h := range hits {
			if r := goReceiver.FindStringSubmatch(h.text); r != nil && (common == nil || common[r[1]]) {
				have[r[1]] = true
			}
		}
		common = have
	}
	found := map[string]Item{}
	for name := range common {
		tags, c := b.lookup(name, b.lang.types)
		cost += c
		for _, t := range tags {
			found[truth.Key(t.Path, t.Line)] = tagItem(t)
		}
	}
	return sortedItems(found), cost, nil
}

// subclasses greps declarations naming base as a base, then their own, three
// levels deep.
func (b *baseline) subclasses(ctx context.Context, base string) ([]Item, int, error) {
	found := map[string]Item{}
	cost := 0
	frontier := []string{base}
	for depth := 0; depth < 3 && len(frontier) > 0; depth++ {
		var next []string
		for _, name := range frontier {
			pattern := `(implements|extends)\b[^{]*\b` + name + `\b`
			if b.lang.rgType == "py" {
				pattern = `class\s+\w+\s*\([^)]*\b` + name + `\b`
			}
			hits, c, err := b.rg(ctx, pattern, false)
			if err != nil {
				return nil, 0, err
			}
			cost += c
			for _, h := range hits {
				for _, i := range b.byFile[h.path] {
					t := b.tags[i]
					if t.Line == h.line && (b.lang.types[t.Kind] || b.lang.ifaces[t.Kind]) {
						k := truth.Key(t.Path, t.Line)
						if _, seen := found[k]; !seen {
							found[k] = tagItem(t)
							next = append(next, t.Name)
						}
					}
				}
			}
		}
		frontier = next
	}
	return sortedItems(found), cost, nil
}

// interfaces a type implements. Go: grep the type's methods, look each name up
// among interface methods, read each candidate interface and keep those whose
// methods the type has. TypeScript and Python: read the declaration's bases and
// follow them.
func (b *baseline) interfaces(ctx context.Context, d truth.Definition, file string, line int) ([]Item, int, error) {
	_, cost := b.lookup(d.Name, b.lang.types)
	if b.lang.rgType != "go" {
		items, n := b.bases(file, line)
		return items, cost + n, nil
	}
	hits, c, err := b.rg(ctx, `func\s*\(\s*(\w+\s+)?\*?\s*`+d.Name+`(\[[^\]]*\])?\s*\)\s*\w+`, false)
	if err != nil {
		return nil, 0, err
	}
	cost += c
	methods := map[string]bool{}
	for _, h := range hits {
		if m := goMethodOf.FindStringSubmatch(h.text); m != nil {
			methods[m[1]] = true
		}
	}
	candidates := map[string]tag{} // interface tags by key
	for m := range methods {
		specs, c := b.lookup(m, set("methodSpec"))
		cost += c
		for _, s := range specs {
			name := s.Scope[strings.LastIndexByte(s.Scope, '.')+1:]
			for _, i := range b.byFile[s.Path] {
				if t := b.tags[i]; b.lang.ifaces[t.Kind] && t.Name == name {
					candidates[truth.Key(t.Path, t.Line)] = t
				}
			}
		}
	}
	found := map[string]Item{}
	for k, iface := range candidates {
		_, n := b.read(iface.Path, iface.Line, iface.End)
		cost += n
		all, some := true, false
		for _, i := range b.byFile[iface.Path] {
			if t := b.tags[i]; t.Kind == "methodSpec" && t.Line > iface.Line && t.Line <= iface.End {
				some = true
				all = all && methods[t.Name]
			}
		}
		if all && some {
			found[k] = tagItem(iface)
		}
	}
	return sortedItems(found), cost, nil
}

// bases reads a class declaration's line and follows the names of its bases
// through the tags, three levels deep.
func (b *baseline) bases(file string, line int) ([]Item, int) {
	found := map[string]Item{}
	cost := 0
	type at struct {
		path string
		line int
	}
	frontier := []at{{file, line}}
	for depth := 0; depth < 3 && len(frontier) > 0; depth++ {
		var next []at
		for _, f := range frontier {
			text, n := b.read(f.path, f.line, f.line)
			cost += n
			if len(text) == 0 {
				continue
			}
			var names string
			if m := heritage.FindStringSubmatch(text[0]); m != nil && b.lang.rgType == "ts" {
				names = m[1]
			} else if m := pyBases.FindStringSubmatch(text[0]); m != nil {
				names = m[1]
			}
			for _, name := range identifier.FindAllString(names, -1) {
				tags, c := b.lookup(name, b.lang.ifaces)
				cost += c
				for _, t := range tags {
					k := truth.Key(t.Path, t.Line)
					if _, seen := found[k]; !seen {
						found[k] = tagItem(t)
						next = append(next, at{t.Path, t.Line})
					}
				}
			}
		}
		frontier = next
	}
	return sortedItems(found), cost
}
