package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// impactDepth is the depth the impact goal names.
const impactDepth = 3

// questionKinds are the questions measured, each asked about symbols sampled from
// the definitions it makes sense for: implementations of types, calls of
// functions; search is asked for a sampled definition's name.
var questionKinds = []struct{ kind, population string }{
	{"definition", popFunctions},
	{"callers", popFunctions},
	{"callees", popFunctions},
	{"references", popReferable},
	{"implementations", popTypes},
	{"impact", popFunctions},
	{"context", popFunctions},
	{"search", popReferable},
}

const (
	popFunctions = "kind IN ('function', 'method')"
	popTypes     = "kind IN ('interface', 'struct', 'class', 'type', 'type_alias', 'enum')"
	popReferable = "kind NOT IN ('file', 'package', 'namespace')"
)

// queryStats is one question kind's latency on one corpus, measured in-process
// (query.AskWith on an open store) and end to end (`albert-code graph query`).
type queryStats struct {
	Kind           string  `json:"kind"`
	Symbols        int     `json:"symbols"`
	InProcessP50Ms float64 `json:"in_process_p50_ms"`
	InProcessP95Ms float64 `json:"in_process_p95_ms"`
	CLIP50Ms       float64 `json:"cli_p50_ms"`
	CLIP95Ms       float64 `json:"cli_p95_ms"`
	// NonEmpty counts the answers with at least one item: latencies over empty
	// answers only would flatter the engine.
	NonEmpty int `json:"non_empty"`
}

type symbol struct{ qname, name string }

// queries measures every question kind on c's current index.
func (b *bench) queries(ctx context.Context, c *corpus) ([]queryStats, error) {
	dbPath := filepath.Join(c.Dir, ".albert-code", "graph", "graph.db")
	st, err := store.OpenReadOnly(dbPath)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var out []queryStats
	for i, q := range questionKinds {
		syms, err := sampleSymbols(ctx, st, q.population, b.cfg.Queries, b.cfg.Seed, uint64(i))
		if err != nil {
			return nil, err
		}
		qs := queryStats{Kind: q.kind, Symbols: len(syms)}
		if len(syms) == 0 {
			b.logf("%-14s %-15s no symbol to ask about", c.Name, q.kind)
			out = append(out, qs)
			continue
		}
		opt := query.Options{}
		if q.kind == "impact" {
			opt.Depth = impactDepth
		}
		arg := func(s symbol) string {
			if q.kind == "search" {
				return s.name
			}
			return s.qname
		}
		// One unmeasured question first: the first read of each table pays for
		// opening the connection and warming SQLite's page cache.
		if _, err := query.AskWith(ctx, st, q.kind, arg(syms[0]), opt); err != nil {
			return nil, fmt.Errorf("%s %s on %s: %w", q.kind, arg(syms[0]), c.Name, err)
		}
		var inproc, cli []float64
		for _, s := range syms {
			start := time.Now()
			a, err := query.AskWith(ctx, st, q.kind, arg(s), opt)
			inproc = append(inproc, ms(time.Since(start)))
			if err != nil {
				return nil, fmt.Errorf("%s %s on %s: %w", q.kind, arg(s), c.Name, err)
			}
			if len(a.Items) > 0 {
				qs.NonEmpty++
			}
		}
		for _, s := range syms {
			d, err := b.cliQuery(ctx, c, q.kind, arg(s))
			if err != nil {
				return nil, err
			}
			cli = append(cli, ms(d))
		}
		qs.InProcessP50Ms, qs.InProcessP95Ms = quantile(inproc, 0.5), quantile(inproc, 0.95)
		qs.CLIP50Ms, qs.CLIP95Ms = quantile(cli, 0.5), quantile(cli, 0.95)
		b.logf("%-14s %-15s %3d symbols  in-process p50 %7.2f p95 %7.2f ms  CLI p50 %7.1f p95 %7.1f ms  %d non-empty",
			c.Name, q.kind, qs.Symbols, qs.InProcessP50Ms, qs.InProcessP95Ms, qs.CLIP50Ms, qs.CLIP95Ms, qs.NonEmpty)
		out = append(out, qs)
	}
	return out, nil
}

// cliQuery runs one `albert-code graph query` and times it from exec to exit.
// It needs no RSS, so the driver runs it directly.
func (b *bench) cliQuery(ctx context.Context, c *corpus, kind, sym string) (time.Duration, error) {
	args := []string{"graph", "query", "--repo", c.Dir, "--json"}
	if kind == "impact" {
		args = append(args, "--depth", fmt.Sprint(impactDepth))
	}
	args = append(args, "--", kind, sym)
	argv := append(append([]string{}, b.cfg.Albert...), args...)
	ctx, cancel := context.WithTimeout(ctx, b.cfg.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = c.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return d, fmt.Errorf("graph query %s %s on %s: %w: %s", kind, sym, c.Name, err, tail(stderr.String()))
	}
	return d, nil
}

// sampleSymbols draws up to n definitions matching where, with a fixed seed per
// question kind, from a stable order.
func sampleSymbols(ctx context.Context, st *store.Store, where string, n int, seed, stream uint64) ([]symbol, error) {
	_, rows, _, err := st.Query(ctx, "SELECT qname, name FROM nodes WHERE "+where+" ORDER BY qname", store.MaxRows, 0)
	if err != nil {
		return nil, fmt.Errorf("sample symbols: %w", err)
	}
	syms := make([]symbol, 0, len(rows))
	for _, r := range rows {
		syms = append(syms, symbol{qname: fmt.Sprint(r[0]), name: fmt.Sprint(r[1])})
	}
	rng := rand.New(rand.NewPCG(seed, 100+stream))
	rng.Shuffle(len(syms), func(i, j int) { syms[i], syms[j] = syms[j], syms[i] })
	return syms[:min(n, len(syms))], nil
}
