package main

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"sort"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// Question kinds. "implementations" asks an interface for its implementing types;
// "interfaces" asks a type for the interfaces it implements (the engine's
// "implementations" question on a type).
const (
	Callers         = "callers"
	Callees         = "callees"
	References      = "references"
	Implementations = "implementations"
	Interfaces      = "interfaces"
)

// Kinds is the order questions are asked and reported in.
var Kinds = []string{Callers, Callees, References, Implementations, Interfaces}

// engineQuestion is the `graph query` kind that answers a question kind.
func engineQuestion(kind string) string {
	if kind == Interfaces {
		return Implementations
	}
	return kind
}

// index is a ground-truth file arranged for asking questions.
type index struct {
	t       *truth.File
	files   map[string]bool
	defs    map[string][]truth.Definition // by key; more than one when definitions share a line
	answers map[string]map[string][]string
	neutral map[string][]truth.Unresolvable // unresolvable call sites by caller key
	// bases are the keys some type implements: Python's Protocols and ABCs are
	// classes, known as interfaces only by being implemented.
	bases map[string]bool
}

func newIndex(t *truth.File) *index {
	ix := &index{t: t, files: map[string]bool{}, defs: map[string][]truth.Definition{},
		answers: map[string]map[string][]string{}, neutral: map[string][]truth.Unresolvable{}, bases: map[string]bool{}}
	for _, f := range t.Files {
		ix.files[f] = true
	}
	for _, d := range t.Definitions {
		ix.defs[d.Key] = append(ix.defs[d.Key], d)
	}
	for _, k := range Kinds {
		ix.answers[k] = map[string][]string{}
	}
	add := func(kind, about, answer string) { ix.answers[kind][about] = append(ix.answers[kind][about], answer) }
	for _, c := range t.Calls {
		add(Callers, c.To, c.From)
		add(Callees, c.From, c.To)
	}
	for _, r := range t.References {
		add(References, r.To, r.From)
	}
	for _, i := range t.Implementations {
		add(Implementations, i.Interface, i.Type)
		add(Interfaces, i.Type, i.Interface)
		ix.bases[i.Interface] = true
	}
	for _, k := range Kinds {
		for about, keys := range ix.answers[k] {
			ix.answers[k][about] = unique(keys)
		}
	}
	for _, u := range t.Unresolvable {
		ix.neutral[u.From] = append(ix.neutral[u.From], u)
	}
	return ix
}

// truthFor is the set of keys that answer kind about the definition at key.
func (ix *index) truthFor(kind, key string) []string { return ix.answers[kind][key] }

// askable says whether d may be asked kind: the definition kinds the question is
// about, never a generated file, never a key shared with another definition (a
// line cannot tell them apart).
func (ix *index) askable(kind string, d truth.Definition) bool {
	if d.Generated || len(ix.defs[d.Key]) > 1 {
		return false
	}
	switch kind {
	case Callers:
		return d.Kind == truth.KindFunction || d.Kind == truth.KindMethod
	case Callees:
		return (d.Kind == truth.KindFunction || d.Kind == truth.KindMethod) && !d.Abstract
	case Implementations:
		return d.Kind == truth.KindInterface || ix.bases[d.Key]
	case Interfaces:
		return d.Kind == truth.KindStruct || d.Kind == truth.KindType || d.Kind == truth.KindClass || d.Kind == truth.KindEnum
	}
	return true
}

// Question is one sampled question with its ground-truth answer.
type Question struct {
	Kind  string           `json:"kind"`
	About truth.Definition `json:"about"`
	Truth []string         `json:"truth"`
}

// sample picks n questions of kind: about zeroShare of them with an empty
// ground-truth answer (to measure false positives), the rest with at least one.
// The order is a hash of the seed, the kind and the definition, so adding a
// definition elsewhere never reshuffles the others (codegraph-eval §5.4).
func (ix *index) sample(kind string, n int, zeroShare float64, seed string) []Question {
	var full, empty []Question
	for _, d := range ix.t.Definitions {
		if !ix.askable(kind, d) {
			continue
		}
		q := Question{Kind: kind, About: d, Truth: ix.truthFor(kind, d.Key)}
		if len(q.Truth) > 0 {
			full = append(full, q)
		} else {
			empty = append(empty, q)
		}
	}
	order := func(qs []Question) {
		h := make(map[string]string, len(qs))
		for _, q := range qs {
			sum := sha256.Sum256([]byte(seed + "\x00" + kind + "\x00" + q.About.Key + "\x00" + q.About.Qualified))
			h[q.About.Key] = hex.EncodeToString(sum[:])
		}
		sort.Slice(qs, func(i, j int) bool { return h[qs[i].About.Key] < h[qs[j].About.Key] })
	}
	order(full)
	order(empty)
	zeros := min(int(math.Round(float64(n)*zeroShare)), len(empty))
	fulls := min(n-zeros, len(full))
	if fulls < n-zeros { // too few with answers: fill with empty ones, and the reverse
		zeros = min(n-fulls, len(empty))
	}
	out := append(append([]Question{}, full[:fulls]...), empty[:zeros]...)
	return out
}

func unique(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
