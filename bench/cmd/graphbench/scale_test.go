package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// The scale leg on a tiny generated Go module: every leg runs and reports
// plausible figures, the server answers every call, and the report gives a
// verdict for each goal.
func TestScaleLegOnATinyModule(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	if err := generateGo(dir, 8, 2); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, "ctags")
	rep, err := runScale(ctx, cfg, dir, 5)
	if err != nil {
		t.Fatal(err)
	}
	if rep.GoFiles != 8 || rep.Floor.Wall <= 0 || rep.Typed.Wall <= 0 || rep.TreeSitter.Wall <= 0 || rep.Typed.MaxRSS <= 0 {
		t.Errorf("legs = %+v", rep)
	}
	if rep.TypedRun.Phases["go"] <= 0 || rep.TypedRun.DurationNS <= 0 {
		t.Errorf("the typed index's own timing was not read: %+v", rep.TypedRun)
	}
	if rep.TreeSitterPhases["first_pass_ms"] <= 0 || rep.TreeSitterPhases["extract_and_write_ms"] <= 0 || rep.TreeSitter.CPU <= 0 || rep.IndexBytes <= 0 || rep.IndexFiles["graph.db"] <= 0 {
		t.Errorf("tree-sitter phases %v, index %d bytes in %v", rep.TreeSitterPhases, rep.IndexBytes, rep.IndexFiles)
	}
	if !slices.ContainsFunc(rep.Tables, func(s tableSize) bool { return s.Name == "edge_rows_dst" && s.Of == "edge_rows" && s.Bytes > 0 }) {
		t.Errorf("table sizes lack edge_rows' index on dst: %+v", rep.Tables)
	}
	if !slices.ContainsFunc(tableTotals(rep.Tables), func(s tableSize) bool { return s.Name == "search" && s.Bytes > 0 }) {
		t.Errorf("table totals lack search (FTS5's shadow tables): %+v", tableTotals(rep.Tables))
	}
	s := rep.Server
	if s == nil || s.Calls != 5 || s.CallersP50 <= 0 || s.TrivialP95 <= 0 || s.CommunitiesAgainMS <= 0 || s.AfterEditMS <= 0 || s.PeakRSSKiB <= 0 {
		t.Errorf("server = %+v", s)
	}
	if m := s.Modes; m == nil || m.PerCallCallersP50 <= 0 || m.KeptCallersP50 <= 0 || m.KeptTrivialP95 <= 0 || m.PerCallCommunitiesAgainMS <= 0 {
		t.Errorf("in-process modes = %+v", s.Modes)
	}
	var out bytes.Buffer
	printScale(&out, rep)
	if !strings.Contains(out.String(), "| typed pass: go (load, facts, snapshot) |") {
		t.Errorf("the report does not split the typed index's time:\n%s", out.String())
	}
	for _, goal := range []string{"typed index time ≤ 1.5×", "peak memory ≤ 1.5×", "≤ 3× ctags", "index on disk ≤ 25 MiB", "find_callers p95 ≤ 20 ms", "trivial call < 5 ms"} {
		if !strings.Contains(out.String(), goal) {
			t.Errorf("the report has no verdict for %q:\n%s", goal, out.String())
		}
	}
}
