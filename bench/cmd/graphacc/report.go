package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// writeTable prints one line per corpus, mode and kind: macro P/R/F1 (the
// headline), micro P/R/F1, and what was neutral or dropped.
func writeTable(w io.Writer, runs []*Run) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "corpus\tmode\tkind\tn\tempty\tno-def\tP\tR\tF1\tmicroP\tmicroR\tmicroF1\tneutral\tdropped\t")
	for _, r := range runs {
		for _, s := range r.Kinds {
			if s.Questions == 0 {
				fmt.Fprintf(tw, "%s\t%s\t%s\t0\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t\n", r.Corpus, r.Mode, s.Kind)
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%s\t\n",
				r.Corpus, r.Mode, s.Kind, s.Questions, s.Empty, s.NoDef, s.MacroP, s.MacroR, s.MacroF1,
				s.MicroP, s.MicroR, s.MicroF1, s.Neutral, formatCounts(s.Dropped))
		}
	}
	return tw.Flush()
}

func formatCounts(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	var parts []string
	for _, k := range []string{"external", "unanalysed", "top-level"} {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
		}
	}
	return strings.Join(parts, ",")
}

// writeExamples prints, per run and kind, the n worst-scored questions with what
// the engine missed (FN) and what it added (FP), named from the ground truth: the
// raw material for the causes in docs/benchmarks/graph-accuracy.md.
func writeExamples(w io.Writer, runs []*Run, n int) {
	if n <= 0 {
		return
	}
	for _, r := range runs {
		ix := r.index
		for _, kind := range Kinds {
			shown := 0
			for _, q := range worst(r.Scored[kind]) {
				if shown == n || q.F1 == 1 {
					break
				}
				shown++
				fmt.Fprintf(w, "%s %s %s %s (%s) F1=%.2f", r.Corpus, r.Mode, kind, q.About.Key, q.About.Qualified, q.F1)
				if q.Note != "" {
					fmt.Fprintf(w, " [%s]", q.Note)
				}
				fmt.Fprintln(w)
				for _, k := range q.FN {
					fmt.Fprintf(w, "    missed %s %s\n", k, ix.describe(k))
				}
				for _, k := range q.FP {
					fmt.Fprintf(w, "    extra  %s %s\n", k, ix.describe(k))
				}
			}
		}
	}
}

// describe names the definitions at a key for a human.
func (ix *index) describe(key string) string {
	ds := ix.defs[key]
	if len(ds) == 0 {
		if ix.files[key] {
			return "(top level)"
		}
		return "(no definition here in the ground truth)"
	}
	var names []string
	for _, d := range ds {
		names = append(names, d.Qualified)
	}
	return strings.Join(names, " | ")
}
