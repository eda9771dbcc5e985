package resolve

import (
	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// Union types: `x.m` on an `x: A | B` names m in every member that declares it,
// as the TypeScript checker counts it; a site then resolves to several targets
// (lookup.alts), each an edge.

// confUnion: m found in one member of a union among several; which one the
// value holds at run time is not known.
const confUnion = 0.8

// unionOf lists the member types of the type alias a (the extractor's
// treesitter.UnionMember sites), resolved like bases; nil when a is no union.
func (v *view) unionOf(a graph.Node) *baseList {
	if bl, ok := v.unions[a.QName]; ok {
		return bl
	}
	if v.unions == nil {
		v.unions = map[string]*baseList{}
	}
	bl := &baseList{deps: newDeps("")}
	v.unions[a.QName] = bl // a cyclic alias sees the list as far as it got
	for _, s := range v.sitesOf(a.File) {
		if s.From != a.QName || s.Kind != treesitter.UnionMember {
			continue
		}
		if o := v.resolveName(a.File, s.From, s.Name, types, bl.deps); o.to != "" && o.res == graph.ResolvedImport {
			bl.bases = append(bl.bases, o.to)
		}
	}
	return bl
}

// unionMember finds name in each member of the union alias l stands for;
// ok is false when l is no union, so other rules may try.
func (v *view) unionMember(l lookup, name string, d *deps, depth int) (lookup, bool) {
	if l.node.Kind != graph.KindTypeAlias {
		return lookup{}, false
	}
	bl := v.unionOf(l.node)
	d.file(l.node.File)
	d.merge(bl.deps)
	if len(bl.bases) == 0 {
		return lookup{}, false
	}
	var hits []graph.Node
	for _, q := range bl.bases {
		m, ok := v.node(q)
		if !ok {
			continue
		}
		r := v.jsMember(lookup{node: m, status: found}, name, d, depth+1)
		hits = append(hits, r.nodes()...)
	}
	out := gather(hits, l.choice)
	if out.status != found {
		out.reason = "not found: " + name + " in the members of " + l.node.QName
	}
	out.union = len(out.alts) > 0
	return out, true
}

// nodes are the definitions l stands for: none, its node, or with a union's
// other members.
func (l lookup) nodes() []graph.Node {
	if !l.isNode() {
		return nil
	}
	return append([]graph.Node{l.node}, l.alts...)
}

// gather makes one lookup of the definitions found, duplicates dropped.
func gather(ns []graph.Node, choice bool) lookup {
	seen := map[string]bool{}
	var uniq []graph.Node
	for _, n := range ns {
		if !seen[n.QName] {
			seen[n.QName] = true
			uniq = append(uniq, n)
		}
	}
	switch len(uniq) {
	case 0:
		return lookup{status: unknown}
	case 1:
		return lookup{node: uniq[0], status: found, choice: choice}
	}
	return lookup{node: uniq[0], alts: uniq[1:], status: found, choice: choice}
}

// eachMember applies step to every definition l stands for, when it stands
// for several (a union's members), and gathers what they find.
func eachMember(l lookup, step func(lookup) lookup) lookup {
	if len(l.alts) == 0 {
		return step(l)
	}
	var hits []graph.Node
	for _, n := range l.nodes() {
		hits = append(hits, step(lookup{node: n, status: found, choice: l.choice}).nodes()...)
	}
	out := gather(hits, l.choice)
	if out.status != found {
		out.reason = "not found in any member of the union"
	}
	out.union = true
	return out
}

// unionOutcome draws an edge to each definition a union lookup found.
func unionOutcome(l lookup) outcome {
	o := importOutcome(l.node.QName, l.choice, confUnion)
	for _, n := range l.alts {
		o.also = append(o.also, n.QName)
	}
	return o
}
