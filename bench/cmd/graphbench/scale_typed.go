package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// typedRun is what `graph index --json` says of its own time: the whole build
// (both passes) and where the typed pass's time went (index.Report's
// phases_ms: scan, go, extract, write, resolve, finish), so that the typed
// index's ratio to the load floor can be split into what the type checker's
// load costs and what the rest of the build adds.
type typedRun struct {
	DurationNS int64              `json:"duration_ns"`
	Phases     map[string]float64 `json:"phases_ms"`
}

// parseTypedRun reads graph index's JSON report.
func parseTypedRun(out []byte) (typedRun, error) {
	var r typedRun
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("graph index --json report: %w", err)
	}
	if r.DurationNS <= 0 || r.Phases["go"] <= 0 {
		return r, fmt.Errorf("graph index --json report: no duration or no go phase (a typed pass that did not load?): %.200s", out)
	}
	return r, nil
}

// typedPassMS is the typed pass's time: the sum of its phases.
func (r typedRun) typedPassMS() float64 {
	var sum float64
	for _, v := range r.Phases {
		sum += v
	}
	return sum
}

// printTypedSplit writes where the typed index's time went, each part against
// the load floor: the go phase (golang.Extract: the go/packages load the floor
// measures, plus the facts and the snapshot), the other phases of the typed
// pass, and the first pass (the build's duration less the typed pass).
func printTypedSplit(w io.Writer, r *scaleReport) {
	t := r.TypedRun
	if t.Phases == nil {
		return
	}
	floor := r.Floor.Wall.Seconds() * 1000
	typed := t.typedPassMS()
	first := float64(t.DurationNS)/1e6 - typed
	fmt.Fprintln(w, "| typed index, median run, by its own timing | ms | × the load floor |")
	fmt.Fprintln(w, "|---|---:|---:|")
	fmt.Fprintf(w, "| whole build (both passes, in-process) | %.0f | %.2f× |\n", float64(t.DurationNS)/1e6, ratio(float64(t.DurationNS)/1e6, floor))
	fmt.Fprintf(w, "| first pass | %.0f | %.2f× |\n", first, ratio(first, floor))
	fmt.Fprintf(w, "| typed pass | %.0f | %.2f× |\n", typed, ratio(typed, floor))
	names := make([]string, 0, len(t.Phases))
	for name := range t.Phases {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		if t.Phases[a] != t.Phases[b] {
			if t.Phases[a] > t.Phases[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, name := range names {
		label := "typed pass: " + name
		if name == "go" {
			label = "typed pass: go (load, facts, snapshot)"
		}
		fmt.Fprintf(w, "| %s | %.0f | %.2f× |\n", label, t.Phases[name], ratio(t.Phases[name], floor))
	}
	fmt.Fprintln(w)
}
