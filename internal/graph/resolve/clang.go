package resolve

import (
	"path"
	"slices"
	"strings"
)

// cLanguage serves C and C++ (they include each other's headers). An include
// brings every name the header declares; a call that resolves to a prototype in
// a header is taken to the one function of that name defined outside headers,
// when there is exactly one (what the linker would bind).
var cLanguage = Language{
	Family:       "c",
	Module:       cModule,
	Key:          func(spec string) string { return path.Base(strings.Trim(spec, "\"<>")) },
	Star:         true,
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
	Headers:      []string{".h", ".hh", ".hpp", ".hxx"},
}

// cModule resolves `#include "x.h"` from the including file's folder first, then
// from the include folders (see includeDirs); `#include <x.h>` from the include
// folders only. A quoted header found nowhere is a miss (a generated header
// counts as one); an angled one is a system or library header: external.
func cModule(t *Tree, from, spec string) Module {
	quoted := strings.HasPrefix(spec, "\"")
	p := strings.Trim(spec, "\"<>")
	var cands []string
	if quoted {
		cands = append(cands, join(parentDir(from), p))
	}
	for _, d := range includeDirs(t) {
		cands = append(cands, join(d, p))
	}
	var hits []string
	for _, c := range cands {
		if t.Has(c) && !slices.Contains(hits, c) {
			hits = append(hits, c)
		}
	}
	switch {
	case len(hits) > 0:
		return Module{Files: hits[:1], Alternatives: len(hits) - 1}
	case quoted:
		return Module{}
	}
	return Module{External: true}
}

// includeDirs are the folders headers are looked up from, in order: the root,
// every folder named include, src/, then the other top-level folders. Judgement:
// the layouts of most C and C++ repositories without reading their build files.
func includeDirs(t *Tree) []string {
	if t.includes != nil {
		return t.includes
	}
	out := []string{""}
	out = append(out, t.dirsEndingWith("include", false)...)
	out = append(out, "src")
	out = append(out, t.TopDirs()...)
	var uniq []string
	for _, d := range out {
		if !slices.Contains(uniq, d) {
			uniq = append(uniq, d)
		}
	}
	t.includes = uniq
	return uniq
}
