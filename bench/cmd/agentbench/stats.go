package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// Goals from the issue, checked on medians: one run on a shared machine says
// little, the median of alternated runs says what a user sees.
const (
	goalOverhead = 50 * time.Millisecond
	goalRSSMiB   = 40
	goalRatio    = 5 // pi's overhead over ours
)

// quantile returns the nearest-rank q-quantile of xs (0 < q <= 1).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(rank, len(s)-1))]
}

// summary is one contestant's figures in the units the report uses.
type summary struct {
	name                     string
	runs, other              int
	overheadMed, overheadP90 float64 // ms
	cpuMed                   float64 // ms
	rssMed, rssP90           float64 // MiB
}

func summarize(name string, samples []sample) summary {
	var over, cpu, rss []float64
	other := 0
	for _, s := range samples {
		over = append(over, ms(s.overhead))
		cpu = append(cpu, ms(s.cpu))
		rss = append(rss, float64(s.rssKiB)/1024)
		other = max(other, s.other)
	}
	return summary{
		name: name, runs: len(samples), other: other,
		overheadMed: quantile(over, 0.5), overheadP90: quantile(over, 0.9),
		cpuMed: quantile(cpu, 0.5),
		rssMed: quantile(rss, 0.5), rssP90: quantile(rss, 0.9),
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// report prints the table as Markdown, so it pastes into docs/benchmarks/agent-overhead.md.
func report(w io.Writer, sums []summary, delay time.Duration) {
	fmt.Fprintf(w, "Scripted server delay subtracted: %.0f ms per run.\n\n", ms(delay))
	fmt.Fprintln(w, "| contestant | runs | overhead median (ms) | overhead p90 (ms) | CPU median (ms) | peak RSS median (MiB) | peak RSS p90 (MiB) | other requests |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, s := range sums {
		fmt.Fprintf(w, "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %d |\n",
			s.name, s.runs, s.overheadMed, s.overheadP90, s.cpuMed, s.rssMed, s.rssP90, s.other)
	}
	ours, okOurs := find(sums, "albert-code")
	peer, okPeer := find(sums, "pi")
	if okOurs && okPeer {
		fmt.Fprintf(w, "\npi / albert-code (medians): overhead ×%.1f, CPU ×%.1f, peak RSS ×%.1f\n",
			peer.overheadMed/ours.overheadMed, peer.cpuMed/ours.cpuMed, peer.rssMed/ours.rssMed)
	}
	if fl, ok := find(sums, "floor"); ok {
		for _, c := range []string{"albert-code", "pi"} {
			if s, ok := find(sums, c); ok {
				fmt.Fprintf(w, "%s above the floor (medians): %.1f ms overhead, %.1f MiB RSS\n",
					c, s.overheadMed-fl.overheadMed, s.rssMed-fl.rssMed)
			}
		}
	}
	if okOurs {
		fmt.Fprintln(w)
		verdict(w, fmt.Sprintf("overhead median %.1f ms ≤ %d ms", ours.overheadMed, goalOverhead.Milliseconds()),
			ours.overheadMed <= ms(goalOverhead))
		verdict(w, fmt.Sprintf("peak RSS median %.1f MiB ≤ %d MiB", ours.rssMed, goalRSSMiB), ours.rssMed <= goalRSSMiB)
		if okPeer {
			r := peer.overheadMed / ours.overheadMed
			verdict(w, fmt.Sprintf("pi's overhead ×%.1f ≥ ×%d", r, goalRatio), r >= goalRatio)
		}
	}
}

func verdict(w io.Writer, what string, met bool) {
	word := "NOT met"
	if met {
		word = "met"
	}
	fmt.Fprintf(w, "- goal %s: %s\n", what, word)
}

func find(sums []summary, name string) (summary, bool) {
	for _, s := range sums {
		if s.name == name {
			return s, true
		}
	}
	return summary{}, false
}
