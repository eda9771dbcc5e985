package main

import (
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// Scored is one question with the engine's answer matched against the truth.
type Scored struct {
	Question
	Answer  []string `json:"answer"`
	TP      []string `json:"tp,omitempty"`
	FP      []string `json:"fp,omitempty"`
	FN      []string `json:"fn,omitempty"`
	Neutral []string `json:"neutral,omitempty"`
	// Dropped counts answer items left out of scoring, by reason: outside the
	// corpus (external), in a file the compiler did not analyse, or top-level code
	// (a package-level initialiser is nobody's caller).
	Dropped map[string]int `json:"dropped,omitempty"`
	// Note says why the engine gave no answer (no definition at the key).
	Note      string  `json:"note,omitempty"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// answerKeys maps the engine's items to ground-truth keys. Items outside the file
// universe are dropped from precision and recall alike (FORMAT.md); so are the
// engine's package or file nodes for call and implementation questions. For
// references, a use at top level is the file's, as in the ground truth.
func (ix *index) answerKeys(kind string, items []Item) ([]string, map[string]int) {
	dropped := map[string]int{}
	var keys []string
	for _, it := range items {
		file, key := it.File, truth.Key(it.File, it.Line)
		if it.Kind == "package" || it.Kind == "file" {
			if kind != References {
				dropped["top-level"]++
				continue
			}
			file, key = it.SiteFile, it.SiteFile
		}
		switch {
		case file == "":
			dropped["external"]++
		case !ix.files[file]:
			dropped["unanalysed"]++
		default:
			keys = append(keys, key)
		}
	}
	return unique(keys), dropped
}

// score matches an answer to a question's truth. An engine edge that the ground
// truth calls unresolvable (a call through a function value whose callee has that
// name) is neutral: neither a true nor a false positive (codegraph-eval §5.3).
func (ix *index) score(q Question, items []Item, note string) Scored {
	keys, dropped := ix.answerKeys(q.Kind, items)
	s := Scored{Question: q, Answer: keys, Note: note}
	if len(dropped) > 0 {
		s.Dropped = dropped
	}
	want := map[string]bool{}
	for _, k := range q.Truth {
		want[k] = true
	}
	got := map[string]bool{}
	for _, k := range keys {
		got[k] = true
		switch {
		case want[k]:
			s.TP = append(s.TP, k)
		case ix.isNeutral(q, k, items):
			s.Neutral = append(s.Neutral, k)
		default:
			s.FP = append(s.FP, k)
		}
	}
	for _, k := range q.Truth {
		if !got[k] {
			s.FN = append(s.FN, k)
		}
	}
	s.Precision, s.Recall, s.F1 = prf(len(s.TP), len(s.FP), len(s.FN))
	return s
}

// isNeutral: for callers, the answer key calls something unresolvable named like
// the question's symbol; for callees, the question's symbol calls something
// unresolvable named like the answer. Without a name, the engine's call site must
// be the unresolvable site.
func (ix *index) isNeutral(q Question, key string, items []Item) bool {
	var from, name string
	switch q.Kind {
	case Callers:
		from, name = key, q.About.Name
	case Callees:
		from, name = q.About.Key, ix.nameAt(key, items)
	default:
		return false
	}
	for _, u := range ix.neutral[from] {
		if u.Name != "" && u.Name == name {
			return true
		}
		if u.Name == "" {
			for _, it := range items {
				if truth.Key(it.File, it.Line) == key && truth.Key(it.SiteFile, it.SiteLine) == u.Site {
					return true
				}
			}
		}
	}
	return false
}

// nameAt is the bare name of the answer at key: the ground truth's when it
// defines the key, else the last part of the engine's qualified name.
func (ix *index) nameAt(key string, items []Item) string {
	if ds := ix.defs[key]; len(ds) > 0 {
		return ds[0].Name
	}
	for _, it := range items {
		if truth.Key(it.File, it.Line) == key {
			q := it.QName
			if i := strings.LastIndexAny(q, ".:"); i >= 0 {
				q = q[i+1:]
			}
			return q
		}
	}
	return ""
}

// prf is precision, recall and F1, with the conventions of codegraph-eval §5.2: an
// empty answer to an empty truth scores 1, a non-empty answer to an empty truth
// has precision 0, an empty answer to a non-empty truth has recall 0.
func prf(tp, fp, fn int) (p, r, f1 float64) {
	p, r = 1, 1
	if tp+fp > 0 {
		p = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		r = float64(tp) / float64(tp+fn)
	}
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1
}

// Summary aggregates one kind's questions. Macro averages the per-question
// scores (what a user sees question by question: the headline); micro pools the
// counts (dominated by the questions with the longest answers).
type Summary struct {
	Kind      string         `json:"kind"`
	Questions int            `json:"questions"`
	Empty     int            `json:"empty_truth"`
	NoDef     int            `json:"no_definition"`
	MacroP    float64        `json:"macro_precision"`
	MacroR    float64        `json:"macro_recall"`
	MacroF1   float64        `json:"macro_f1"`
	MicroP    float64        `json:"micro_precision"`
	MicroR    float64        `json:"micro_recall"`
	MicroF1   float64        `json:"micro_f1"`
	TP        int            `json:"tp"`
	FP        int            `json:"fp"`
	FN        int            `json:"fn"`
	Neutral   int            `json:"neutral"`
	Dropped   map[string]int `json:"dropped,omitempty"`
}

func summarize(kind string, scored []Scored) Summary {
	s := Summary{Kind: kind, Questions: len(scored), Dropped: map[string]int{}}
	for _, q := range scored {
		if len(q.Truth) == 0 {
			s.Empty++
		}
		if q.Note != "" {
			s.NoDef++
		}
		s.MacroP += q.Precision
		s.MacroR += q.Recall
		s.MacroF1 += q.F1
		s.TP += len(q.TP)
		s.FP += len(q.FP)
		s.FN += len(q.FN)
		s.Neutral += len(q.Neutral)
		for k, v := range q.Dropped {
			s.Dropped[k] += v
		}
	}
	if n := float64(len(scored)); n > 0 {
		s.MacroP, s.MacroR, s.MacroF1 = s.MacroP/n, s.MacroR/n, s.MacroF1/n
	}
	s.MicroP, s.MicroR, s.MicroF1 = prf(s.TP, s.FP, s.FN)
	if len(s.Dropped) == 0 {
		s.Dropped = nil
	}
	return s
}

// worst orders scored questions from the lowest F1, for the examples a report
// shows.
func worst(scored []Scored) []Scored {
	out := append([]Scored(nil), scored...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].F1 < out[j].F1 })
	return out
}
