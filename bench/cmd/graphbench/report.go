package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Goals from issue 3, "Measure: speed and size".
const (
	goalIncrementalMs = 100 // re-index after a one-file change, on a 1,000-file repository
	goalQueryP95Ms    = 50  // p95 of every question kind
)

// printMarkdown prints the report as Markdown tables, to paste into
// docs/benchmarks/graph-speed.md.
func printMarkdown(w io.Writer, r *report) {
	fmt.Fprintf(w, "Machine: %s; load average %s before, %s after. ctags: %s.\n", r.Machine, r.LoadBefore, r.LoadAfter, r.Ctags)
	fmt.Fprintf(w, "Settings: -n %d -warmup %d -changes %d -change-budget %s -queries %d -seed %d.\n\n",
		r.Settings.N, r.Settings.Warmup, r.Settings.Changes, r.Settings.Budget, r.Settings.Queries, r.Settings.Seed)

	fmt.Fprintln(w, "| corpus | origin | files | lines | languages (files) | Go type-checked |")
	fmt.Fprintln(w, "|---|---|---:|---:|---|---|")
	for _, c := range r.Corpora {
		typed := "—"
		if c.Languages["go"] > 0 {
			typed = fmt.Sprintf("%v (%d errors)", c.GoTypes, c.GoErrors)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %s | %s |\n", c.Name, c.Origin, c.Files, c.Lines, languages(c.Languages), typed)
	}

	if hasIndex(r) {
		fmt.Fprintln(w, "\nFull index, medians (wall p90 in brackets); ratios are albert-code over the other leg:")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| corpus | albert-code wall (ms) | CPU (ms) | RSS (MiB) | ctags wall (ms) | ctags RSS (MiB) | floor wall (ms) | floor RSS (MiB) | × ctags | × floor |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
		for _, c := range r.Corpora {
			if len(c.Index) == 0 {
				continue
			}
			a, ct, fl := leg(c, legAlbert), leg(c, legCtags), leg(c, legFloor)
			fmt.Fprintf(w, "| %s | %.0f [%.0f] | %.0f | %.1f | %s | %s | %.0f | %.1f | %s | ×%.1f |\n", c.Name,
				a.WallMedianMs, a.WallP90Ms, a.CPUMedianMs, a.RSSMedianMiB,
				orDash(ct, "%.0f", ct.WallMedianMs), orDash(ct, "%.1f", ct.RSSMedianMiB),
				fl.WallMedianMs, fl.RSSMedianMiB,
				orDash(ct, "×%.1f", ratio(a.WallMedianMs, ct.WallMedianMs)), ratio(a.WallMedianMs, fl.WallMedianMs))
		}
	}

	if hasIncremental(r) {
		fmt.Fprintln(w, "\nIncremental `graph index` after a one-file change (each change in another file, left in place):")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| corpus | change | runs | median (ms) | p95 (ms) | engine's own median (ms) | files re-extracted (median) | RSS (MiB) | verified | whole Go module reloaded |")
		fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
		for _, c := range r.Corpora {
			for _, s := range c.Incremental {
				full := "—"
				if c.Languages["go"] > 0 {
					full = fmt.Sprintf("%d/%d", s.GoFull, s.Changes)
					if s.GoFullReason != "" {
						full += " (" + s.GoFullReason + ")"
					}
				}
				fmt.Fprintf(w, "| %s | %s | %d | %.0f | %.0f | %.0f | %.0f | %.1f | %d/%d | %s |\n", c.Name, s.Kind, s.Changes,
					s.WallMedianMs, s.WallP95Ms, s.EngineMedianMs, s.ExtractedMedian, s.RSSMedianMiB, s.Verified, s.Changes, full)
			}
		}
	}

	if hasQueries(r) {
		fmt.Fprintln(w, "\nQuery latency (ms), in-process (`query.AskWith` on an open store) and end to end (`albert-code graph query --json`, exec to exit):")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| corpus | question | symbols | non-empty | in-process p50 | in-process p95 | CLI p50 | CLI p95 |")
		fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|")
		for _, c := range r.Corpora {
			for _, q := range c.Queries {
				fmt.Fprintf(w, "| %s | %s | %d | %d | %.2f | %.2f | %.0f | %.0f |\n", c.Name, q.Kind, q.Symbols, q.NonEmpty,
					q.InProcessP50Ms, q.InProcessP95Ms, q.CLIP50Ms, q.CLIP95Ms)
			}
		}
	}
	fmt.Fprintln(w)
	printGoals(w, r)
}

// printGoals checks the goals on this run's figures.
func printGoals(w io.Writer, r *report) {
	for _, c := range r.Corpora {
		if !c.Generated {
			continue
		}
		for _, s := range c.Incremental {
			if s.Kind == changeNone || s.Changes == 0 {
				continue
			}
			verdict(w, fmt.Sprintf("incremental re-index < %d ms on %s (%d files), %s: median %.0f ms, p95 %.0f ms",
				goalIncrementalMs, c.Name, c.Files, s.Kind, s.WallMedianMs, s.WallP95Ms), s.WallMedianMs < goalIncrementalMs)
		}
	}
	if !hasQueries(r) {
		return
	}
	var inproc, cli float64
	var inprocAt, cliAt string
	for _, c := range r.Corpora {
		for _, q := range c.Queries {
			if q.InProcessP95Ms > inproc {
				inproc, inprocAt = q.InProcessP95Ms, c.Name+" "+q.Kind
			}
			if q.CLIP95Ms > cli {
				cli, cliAt = q.CLIP95Ms, c.Name+" "+q.Kind
			}
		}
	}
	verdict(w, fmt.Sprintf("query p95 < %d ms in-process: worst p95 %.2f ms (%s)", goalQueryP95Ms, inproc, inprocAt), inproc < goalQueryP95Ms)
	verdict(w, fmt.Sprintf("query p95 < %d ms through the CLI: worst p95 %.0f ms (%s)", goalQueryP95Ms, cli, cliAt), cli < goalQueryP95Ms)
}

func verdict(w io.Writer, what string, met bool) {
	word := "NOT met"
	if met {
		word = "met"
	}
	fmt.Fprintf(w, "- goal %s: %s\n", what, word)
}

func leg(c corpusReport, name string) legStats {
	for _, l := range c.Index {
		if l.Name == name {
			return l
		}
	}
	return legStats{Name: name, Status: "not run"}
}

// orDash formats v, or says why the leg has no figure.
func orDash(l legStats, format string, v float64) string {
	if l.Status != "ok" {
		return "— (" + l.Status + ")"
	}
	return fmt.Sprintf(format, v)
}

func languages(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func hasIndex(r *report) bool {
	return slices.ContainsFunc(r.Corpora, func(c corpusReport) bool { return len(c.Index) > 0 })
}

func hasIncremental(r *report) bool {
	return slices.ContainsFunc(r.Corpora, func(c corpusReport) bool { return len(c.Incremental) > 0 })
}

func hasQueries(r *report) bool {
	return slices.ContainsFunc(r.Corpora, func(c corpusReport) bool { return len(c.Queries) > 0 })
}
