package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverReport is what a running `graph mcp` answered, and how fast.
type serverReport struct {
	Calls int `json:"calls"`
	// FirstMS is the first call (health_check): the index opened, the tree
	// walked once and watched.
	FirstMS            float64 `json:"first_ms"`
	CallersP50         float64 `json:"find_callers_p50_ms"`
	CallersP95         float64 `json:"find_callers_p95_ms"`
	TrivialP50         float64 `json:"select1_p50_ms"`
	TrivialP95         float64 `json:"select1_p95_ms"`
	CommunitiesFirstMS float64 `json:"communities_first_ms"`
	CommunitiesAgainMS float64 `json:"communities_again_ms"`
	// AfterEditMS is the median find_callers answered right after a one-line
	// edit inside a function body (the edit indexed before the answer).
	AfterEditMS float64 `json:"after_edit_ms"`
	PeakRSSKiB  int64   `json:"peak_rss_kib"`
	// Modes is the same questions in-process, per call against kept.
	Modes *modeReport `json:"modes,omitempty"`
}

// measureServer starts `graph mcp` on the indexed dir and times its answers
// over calls calls per question, the way an agent host keeps one server for a
// session (stdio, one client).
func measureServer(ctx context.Context, albert []string, dir, indexDir string, calls int) (*serverReport, error) {
	cmd := exec.CommandContext(ctx, albert[0], append(albert[1:], "graph", "mcp", "--repo", dir)...)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "graphbench"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("start graph mcp: %w", err)
	}
	defer cs.Close()
	ask := func(name string, args any) (time.Duration, string, error) {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		d := time.Since(start)
		if err != nil {
			return d, "", fmt.Errorf("%s: %w", name, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			return d, text, fmt.Errorf("%s: %s", name, text)
		}
		return d, text, nil
	}
	rep := &serverReport{Calls: calls}
	d, _, err := ask("health_check", struct{}{})
	if err != nil {
		return nil, err
	}
	rep.FirstMS = ms(d)

	// Symbols with callers, most called first: a sample an agent would ask about.
	_, text, err := ask("query_graph", map[string]any{"sql": "SELECT dst FROM edges WHERE kind = 'calls' " +
		"AND dst IN (SELECT qname FROM nodes) GROUP BY dst ORDER BY COUNT(*) DESC, dst LIMIT 200", "max_rows": 200, "limit": 200})
	if err != nil {
		return nil, err
	}
	symbols := columnValues(text)
	if len(symbols) == 0 {
		return nil, fmt.Errorf("no called symbol in the index: %.300s", text)
	}
	var callers, trivial []float64
	for i := range calls {
		d, _, err := ask("find_callers", map[string]any{"symbol": symbols[i%len(symbols)]})
		if err != nil {
			return nil, err
		}
		callers = append(callers, ms(d))
		if d, _, err = ask("query_graph", map[string]any{"sql": "SELECT 1"}); err != nil {
			return nil, err
		}
		trivial = append(trivial, ms(d))
	}
	rep.CallersP50, rep.CallersP95 = quantile(callers, 0.5), quantile(callers, 0.95)
	rep.TrivialP50, rep.TrivialP95 = quantile(trivial, 0.5), quantile(trivial, 0.95)

	if d, _, err = ask("get_communities", map[string]any{}); err != nil {
		return nil, err
	}
	rep.CommunitiesFirstMS = ms(d)
	if d, _, err = ask("get_communities", map[string]any{"offset": 1}); err != nil {
		return nil, err
	}
	rep.CommunitiesAgainMS = ms(d)

	edited, err := bodyEditTarget(dir)
	if err != nil {
		return nil, err
	}
	var after []float64
	for i := range 3 {
		f, err := os.OpenFile(edited, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(f, "\n// graphbench edit %d\n", i)
		f.Close()
		d, _, err := ask("find_callers", map[string]any{"symbol": symbols[0]})
		if err != nil {
			return nil, err
		}
		after = append(after, ms(d))
	}
	rep.AfterEditMS = quantile(after, 0.5)
	if cmd.Process != nil {
		rep.PeakRSSKiB = peakRSS(cmd.Process.Pid)
	}
	cs.Close()
	// The per-call mode walks the whole tree on every call: fewer calls.
	if rep.Modes, err = compareModes(ctx, dir, symbols, max(calls/5, 1)); err != nil {
		return nil, fmt.Errorf("in-process modes: %w", err)
	}
	return rep, nil
}

// columnValues reads the first column of query_graph's answer.
func columnValues(text string) []string {
	var out struct {
		Rows [][]any `json:"rows"`
	}
	if json.Unmarshal([]byte(text), &out) != nil {
		return nil
	}
	var vals []string
	for _, r := range out.Rows {
		if len(r) > 0 {
			if s, ok := r[0].(string); ok {
				vals = append(vals, s)
			}
		}
	}
	return vals
}

// bodyEditTarget is a non-test Go file of the repository's root package or
// the first package found, where appending a comment is an edit that changes no
// declaration.
func bodyEditTarget(dir string) (string, error) {
	matches, _ := filepath.Glob(filepath.Join(dir, "go", "packages", "*.go"))
	matches = append(matches, must(filepath.Glob(filepath.Join(dir, "*", "*.go")))...)
	for _, m := range matches {
		if !strings.HasSuffix(m, "_test.go") {
			return m, nil
		}
	}
	return "", fmt.Errorf("no Go file to edit under %s", dir)
}

func must[T any](v T, _ error) T { return v }

// peakRSS is VmHWM of a running process, in KiB (0 when unreadable).
func peakRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
