package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Phases of a run.
const (
	phaseIndex       = "index"
	phaseIncremental = "incremental"
	phaseQuery       = "query"
)

// config is one benchmark run.
type config struct {
	// Albert is the argv prefix that runs albert-code (the binary, or a test
	// binary in the albert-code role).
	Albert []string
	// Self is this program, run in the launch and floor roles.
	Self  string
	Ctags string // name or path of universal-ctags

	N, Warmup int // full-index rounds per leg
	Changes   int // one-file changes per kind
	// ChangeBudget stops a change kind early once its re-indexes took longer
	// (zero: no limit), so that a slow path cannot hold the run for hours.
	ChangeBudget time.Duration
	Queries      int // symbols per question kind
	Seed         uint64
	Phases       []string
	Timeout      time.Duration // for one command
	Work         string        // where corpora are copied; removed by the caller
	Sources      []source
	Log          io.Writer
}

// source makes one corpus: it fills dst and says where the content came from.
type source struct {
	name string
	// generated marks the 1,000-file repositories the incremental goal is set on.
	generated bool
	prepare   func(ctx context.Context, dst string) (origin string, err error)
}

// report is everything a run measured; the Markdown tables are printed from it.
type report struct {
	Machine    string         `json:"machine"`
	LoadBefore string         `json:"load_before"`
	LoadAfter  string         `json:"load_after"`
	Ctags      string         `json:"ctags"` // version, or why the leg did not run
	Settings   settings       `json:"settings"`
	Corpora    []corpusReport `json:"corpora"`
}

type settings struct {
	N       int    `json:"n"`
	Warmup  int    `json:"warmup"`
	Changes int    `json:"changes"`
	Budget  string `json:"change_budget"`
	Queries int    `json:"queries"`
	Seed    uint64 `json:"seed"`
}

type corpusReport struct {
	Name        string         `json:"name"`
	Origin      string         `json:"origin"`
	Generated   bool           `json:"generated"`
	Files       int            `json:"files"`
	Lines       int            `json:"lines"`
	Languages   map[string]int `json:"languages"`
	GoTypes     bool           `json:"go_types"`
	GoErrors    int            `json:"go_errors"`
	Index       []legStats     `json:"index,omitempty"`
	Incremental []changeStats  `json:"incremental,omitempty"`
	Queries     []queryStats   `json:"queries,omitempty"`
}

// bench holds a run's state.
type bench struct {
	cfg                                  config
	launch                               launcher
	ctagsPath, ctagsVersion, ctagsStatus string
	changeSeq                            int // numbers every edit, so no two contents repeat
}

// run prepares every corpus and measures the phases asked for, corpus by corpus.
func run(ctx context.Context, cfg config) (*report, error) {
	b := &bench{cfg: cfg, launch: launcher{self: cfg.Self, timeout: cfg.Timeout}}
	b.ctagsPath, b.ctagsVersion, b.ctagsStatus = findCtags(ctx, cfg.Ctags)
	rep := &report{
		Machine:    fmt.Sprintf("%d CPUs, %s %s/%s", runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH),
		LoadBefore: loadAverage(),
		Ctags:      b.ctagsVersion,
		Settings:   settings{N: cfg.N, Warmup: cfg.Warmup, Changes: cfg.Changes, Budget: cfg.ChangeBudget.String(), Queries: cfg.Queries, Seed: cfg.Seed},
	}
	if b.ctagsStatus != "ok" {
		rep.Ctags = b.ctagsStatus
	}
	for _, src := range cfg.Sources {
		c, err := b.prepare(ctx, src)
		if err != nil {
			return nil, err
		}
		cr := corpusReport{Name: c.Name, Origin: c.Origin, Generated: src.generated,
			Files: len(c.Files), Lines: c.Lines, Languages: c.Languages}
		b.logf("%-14s %s: %d files, %d lines, %v", c.Name, c.Origin, cr.Files, cr.Lines, c.Languages)
		if b.wants(phaseIndex) {
			if cr.Index, err = b.fullIndex(ctx, c); err != nil {
				return nil, err
			}
		}
		if b.wants(phaseIncremental) {
			if cr.Incremental, err = b.incremental(ctx, c); err != nil {
				return nil, err
			}
		}
		if b.wants(phaseQuery) {
			if err := b.ensureIndex(ctx, c); err != nil {
				return nil, err
			}
			if cr.Queries, err = b.queries(ctx, c); err != nil {
				return nil, err
			}
		}
		cr.GoTypes, cr.GoErrors = c.GoTypes, c.GoErrors
		rep.Corpora = append(rep.Corpora, cr)
	}
	rep.LoadAfter = loadAverage()
	return rep, nil
}

func (b *bench) prepare(ctx context.Context, src source) (*corpus, error) {
	dir := filepath.Join(b.cfg.Work, "corpora", src.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	origin, err := src.prepare(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("prepare corpus %s: %w", src.name, err)
	}
	c := &corpus{Name: src.name, Origin: origin, Dir: dir}
	if err := c.describe(ctx, filepath.Join(b.cfg.Work, src.name+".files")); err != nil {
		return nil, err
	}
	return c, nil
}

// ensureIndex builds c's index, unmeasured, when no earlier phase did.
func (b *bench) ensureIndex(ctx context.Context, c *corpus) error {
	if _, err := os.Stat(filepath.Join(c.Dir, ".albert-code", "graph", "graph.db")); err == nil {
		return nil
	}
	argv := append(append([]string{}, b.cfg.Albert...), "graph", "index", "--rebuild", "--json", c.Dir)
	_, _, err := b.launch.run(ctx, c.Dir, argv...)
	return err
}

func (b *bench) wants(phase string) bool { return slices.Contains(b.cfg.Phases, phase) }

func (b *bench) logf(format string, args ...any) {
	if b.cfg.Log != nil {
		fmt.Fprintf(b.cfg.Log, format+"\n", args...)
	}
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
