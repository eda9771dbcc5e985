package query

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

const (
	// DefaultBudget bounds a context answer's JSON. Judgement: about 2,000 tokens
	// at 4 characters a token, what an agent reads before deciding where to look.
	DefaultBudget = 8000
	// sectionCap is the most items a context section shows before the budget
	// applies. Judgement: a neighbourhood, not a listing; the other questions page.
	sectionCap = 20
)

// Section is one part of a context answer: how many items it has and how many
// are shown.
type Section struct {
	Name  string `json:"name"`
	Total int    `json:"total"`
	Shown int    `json:"shown"`
}

// dropOrder lists the sections from least to most important: the budget trims
// them in this order. Judgement: what a symbol is (its container, who depends on
// it, what implements it) matters more than what it uses or contains.
var dropOrder = []string{"references", "members", "fields", "callees", "methods", "implements", "callers", "implementations", "container"}

type contextSection struct {
	name   string
	items  []Item
	shown  int
	limit  int  // shown before the budget: the items, or sectionCap of them
	capped bool // limit is below the items
	trim   bool // shown was cut below limit by the budget
}

// neighbourhood answers "context": the symbol's definition and the sections
// around it, within opt.Budget bytes of JSON.
func neighbourhood(ctx context.Context, st *store.Store, symbol string, targets []graph.Node, opt Options) (*Answer, error) {
	budget := opt.Budget
	if budget == 0 {
		budget = DefaultBudget
	}
	targets = slices.Clone(targets)
	slices.SortStableFunc(targets, func(a, b graph.Node) int { return rank(a) - rank(b) })
	n := targets[0]
	secs, relWhy, err := contextSections(ctx, st, n)
	if err != nil {
		return nil, fmt.Errorf("context of %s: %w", symbol, err)
	}
	def := nodeItem(n)
	def.Section, def.Signature, def.Doc = "definition", n.Signature, n.Doc
	var lead []string
	if len(targets) > 1 {
		var others []string
		for _, t := range targets[1:] {
			others = append(others, t.QName)
		}
		lead = append(lead, fmt.Sprintf("%q names %d definitions; this is the context of %s (ask for %s by qualified name)",
			symbol, len(targets), n.QName, sample(others, 3)))
	}
	lead = append(lead, relWhy...)

	build := func() (*Answer, int, error) {
		a := &Answer{Question: "context", Symbol: symbol, Certainty: Exact, Items: []Item{def}, Budget: budget}
		for _, t := range targets {
			a.Targets = append(a.Targets, nodeItem(t))
		}
		why := slices.Clone(lead)
		var capped, trimmed []string
		for _, s := range secs {
			a.Sections = append(a.Sections, Section{Name: s.name, Total: len(s.items), Shown: s.shown})
			a.Items = append(a.Items, s.items[:s.shown]...)
			left := fmt.Sprintf("%s (%d of %d shown)", s.name, s.shown, len(s.items))
			switch {
			case s.trim && s.shown == 0:
				trimmed = append(trimmed, fmt.Sprintf("%s (all %d dropped)", s.name, len(s.items)))
			case s.trim:
				trimmed = append(trimmed, left)
			case s.capped:
				capped = append(capped, left)
			}
		}
		if len(capped) > 0 {
			why = append(why, fmt.Sprintf("sections are capped at %d items: %s", sectionCap, strings.Join(capped, ", ")))
		}
		if len(trimmed) > 0 {
			why = append(why, fmt.Sprintf("left out to fit the budget of %d characters: %s", budget, strings.Join(trimmed, ", ")))
		}
		if def.Doc != n.Doc || def.Signature != n.Signature {
			a.Truncated = true
			why = append(why, "the definition alone exceeds the budget: its doc and signature are cut")
		}
		if len(why) > 0 {
			a.Certainty = LowerBound
		} else {
			why = append(why, "every section is complete and every edge in it was resolved exactly")
		}
		a.Why = strings.Join(why, "; ")
		b, err := json.Marshal(a)
		return a, len(b), err
	}

	a, size, err := build()
	if err != nil {
		return nil, err
	}
	for _, name := range dropOrder {
		if size <= budget {
			break
		}
		i := slices.IndexFunc(secs, func(s *contextSection) bool { return s.name == name })
		if i < 0 {
			continue
		}
		for s := secs[i]; s.shown > 0 && size > budget; {
			s.shown--
			s.trim = true
			if a, size, err = build(); err != nil {
				return nil, err
			}
		}
	}
	// Dropping an item lengthens the why that lists what was dropped, so the loop
	// above can overshoot: give back what fits, most important section first.
	for _, name := range slices.Backward(dropOrder) {
		i := slices.IndexFunc(secs, func(s *contextSection) bool { return s.name == name })
		if i < 0 {
			continue
		}
		for s := secs[i]; s.trim; {
			s.shown++
			s.trim = s.shown < s.limit
			b, bsize, err := build()
			if err != nil {
				return nil, err
			}
			if bsize > budget {
				s.shown--
				s.trim = true
				break
			}
			a, size = b, bsize
		}
	}
	if a, size, err = build(); err != nil {
		return nil, err
	}
	// Still too large: only the definition is left; cut its doc, then its signature.
	for _, field := range []*string{&def.Doc, &def.Signature} {
		for size > budget && *field != "" {
			*field = cut(*field, max(len(*field)-(size-budget)-len("…"), 0))
			if a, size, err = build(); err != nil {
				return nil, err
			}
		}
	}
	return a, nil
}

// rank orders the definitions a bare name can mean for context, which shows one:
// a member (field, method) names something inside the definition an agent most
// likely asks about, and a longer qualified name is more deeply nested.
// Judgement, not measurement.
func rank(n graph.Node) int {
	r := strings.Count(n.QName, ".") + strings.Count(n.QName, "::")
	if n.Kind == graph.KindField || n.Kind == graph.KindMethod {
		r += 100
	}
	return r
}

// cut shortens s to at most n bytes on a rune boundary, marking the cut with "…".
func cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// contextSections gathers n's neighbourhood, in display order, and the reasons the
// relations it lists may be incomplete.
func contextSections(ctx context.Context, st *store.Store, n graph.Node) ([]*contextSection, []string, error) {
	var secs []*contextSection
	var why []string
	add := func(name string, items []Item, reason string) {
		if reason != "" {
			why = append(why, name+": "+reason)
		}
		if len(items) == 0 {
			return
		}
		sortItems(items)
		for i := range items {
			items[i].Section = name
		}
		s := &contextSection{name: name, items: items, limit: min(len(items), sectionCap)}
		s.shown, s.capped = s.limit, s.limit < len(items)
		secs = append(secs, s)
	}

	containers, _, err := edgesAround(ctx, st, n, graph.EdgeContains, store.In)
	if err != nil {
		return nil, nil, err
	}
	add("container", containers, "")

	if n.Kind == graph.KindFunction || n.Kind == graph.KindMethod {
		items, reason, err := callers(ctx, st, n)
		if err != nil {
			return nil, nil, err
		}
		add("callers", items, reason)
		items, reason, err = callees(ctx, st, n)
		if err != nil {
			return nil, nil, err
		}
		add("callees", items, reason)
	}

	members, _, err := edgesAround(ctx, st, n, graph.EdgeContains, store.Out)
	if err != nil {
		return nil, nil, err
	}
	var methods, fields, others []Item
	for _, it := range members {
		switch graph.NodeKind(it.Kind) {
		case graph.KindMethod:
			methods = append(methods, it)
		case graph.KindField:
			fields = append(fields, it)
		default:
			others = append(others, it)
		}
	}
	add("methods", methods, "")
	add("fields", fields, "")

	switch n.Kind {
	case graph.KindInterface:
		items, reason, err := implementations(ctx, st, n)
		if err != nil {
			return nil, nil, err
		}
		add("implementations", items, reason)
	case graph.KindStruct, graph.KindClass, graph.KindType, graph.KindEnum:
		items, reason, err := implementations(ctx, st, n)
		if err != nil {
			return nil, nil, err
		}
		add("implements", items, reason)
	}
	add("members", others, "")

	refs, exact, err := edgesAround(ctx, st, n, graph.EdgeReferences, store.In)
	if err != nil {
		return nil, nil, err
	}
	reason := ""
	if !exact {
		reason = "some uses were matched by name, not by the type checker"
	}
	add("references", refs, reason)
	return secs, why, nil
}
