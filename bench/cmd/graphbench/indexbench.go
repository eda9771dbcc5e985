package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Leg names of the full-index phase.
const (
	legAlbert = "albert-code"
	legCtags  = "ctags"
	legFloor  = "tree-sitter floor"
)

// legStats is one contestant's full-index figures on one corpus.
type legStats struct {
	Name   string `json:"name"`
	Status string `json:"status"` // "ok", or why the leg did not run
	Runs   int    `json:"runs"`
	// Wall time from exec to exit; CPU is user + system, the command's and its
	// reaped children's; RSS is wait4's ru_maxrss (the largest of those).
	WallMedianMs float64 `json:"wall_median_ms"`
	WallP90Ms    float64 `json:"wall_p90_ms"`
	CPUMedianMs  float64 `json:"cpu_median_ms"`
	RSSMedianMiB float64 `json:"rss_median_mib"`
	// Output says what the last run produced, to show the legs did comparable work.
	Output string `json:"output"`
}

// indexReport is the part of `graph index --json` the benchmark reads.
type indexReport struct {
	Files       int            `json:"files"`
	Extracted   int            `json:"extracted"`
	Languages   map[string]int `json:"languages"`
	GoTypes     bool           `json:"go_types"`
	GoErrors    int            `json:"go_errors"`
	GoMode      string         `json:"go_mode"` // "incremental" or "full" (with the reason)
	GoReason    string         `json:"go_full_reason"`
	DurationNs  int64          `json:"duration_ns"` // index.Run's own time, inside the process
	Partial     []any          `json:"partial"`
	Quarantined []any          `json:"quarantined"`
}

// indexLeg is one contestant: how to run it once on a corpus and summarise its output.
type indexLeg struct {
	name string
	argv func(c *corpus) []string
	// check reads the output of a run and says what it produced.
	check func(c *corpus, stdout []byte) (string, error)
}

// fullIndex measures every leg on c, warmup+n rounds, the order rotating each
// round so that no leg always follows another's page-cache or CPU burst.
func (b *bench) fullIndex(ctx context.Context, c *corpus) ([]legStats, error) {
	legs := []indexLeg{b.albertLeg()}
	stats := map[string]*legStats{legAlbert: {Name: legAlbert, Status: "ok"}}
	if b.ctagsPath != "" {
		legs = append(legs, b.ctagsLeg())
		stats[legCtags] = &legStats{Name: legCtags, Status: "ok"}
	} else {
		stats[legCtags] = &legStats{Name: legCtags, Status: b.ctagsStatus}
	}
	legs = append(legs, b.floorLeg())
	stats[legFloor] = &legStats{Name: legFloor, Status: "ok"}

	samples := map[string][]measurement{}
	for round := range b.cfg.Warmup + b.cfg.N {
		for j := range legs {
			leg := legs[(round+j)%len(legs)]
			m, out, err := b.launch.run(ctx, c.Dir, leg.argv(c)...)
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", leg.name, c.Name, err)
			}
			what, err := leg.check(c, out)
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", leg.name, c.Name, err)
			}
			stats[leg.name].Output = what
			label := "warm-up"
			if round >= b.cfg.Warmup {
				samples[leg.name] = append(samples[leg.name], m)
				label = fmt.Sprintf("run %d/%d", round-b.cfg.Warmup+1, b.cfg.N)
			}
			b.logf("%-14s %-18s %-9s wall %8.1f ms  cpu %8.1f ms  rss %6.1f MiB  %s",
				c.Name, leg.name, label, ms(m.Wall), ms(m.CPU), mib(m.MaxRSS), what)
		}
	}
	var out []legStats
	for _, name := range []string{legAlbert, legCtags, legFloor} {
		s := stats[name]
		var wall, cpu, rss []float64
		for _, m := range samples[name] {
			wall, cpu, rss = append(wall, ms(m.Wall)), append(cpu, ms(m.CPU)), append(rss, mib(m.MaxRSS))
		}
		s.Runs = len(wall)
		s.WallMedianMs, s.WallP90Ms = quantile(wall, 0.5), quantile(wall, 0.9)
		s.CPUMedianMs, s.RSSMedianMiB = quantile(cpu, 0.5), quantile(rss, 0.5)
		out = append(out, *s)
	}
	return out, nil
}

func (b *bench) albertLeg() indexLeg {
	return indexLeg{
		name: legAlbert,
		argv: func(c *corpus) []string {
			return append(append([]string{}, b.cfg.Albert...), "graph", "index", "--rebuild", "--json", c.Dir)
		},
		check: func(c *corpus, stdout []byte) (string, error) {
			var r indexReport
			if err := json.Unmarshal(stdout, &r); err != nil {
				return "", fmt.Errorf("read the index report: %w", err)
			}
			if r.Files != len(c.Files) {
				return "", fmt.Errorf("indexed %d files, the walk listed %d", r.Files, len(c.Files))
			}
			c.GoTypes, c.GoErrors = r.GoTypes, r.GoErrors
			what := fmt.Sprintf("%d files indexed", r.Files)
			if c.Languages["go"] > 0 {
				what += fmt.Sprintf(", Go type-checked: %v (%d errors)", r.GoTypes, r.GoErrors)
			}
			if n := len(r.Partial) + len(r.Quarantined); n > 0 {
				what += fmt.Sprintf(", %d partial or quarantined", n)
			}
			return what, nil
		},
	}
}

func (b *bench) ctagsLeg() indexLeg {
	return indexLeg{
		name: legCtags,
		argv: func(c *corpus) []string {
			// The same files as the engine's walk, by list, not by ctags' own -R walk;
			// tags go to a real file, as the engine writes a real database.
			return []string{b.ctagsPath, "--fields=+n", "--extras=+q", "-f", c.List + ".tags", "-L", c.List}
		},
		check: func(c *corpus, _ []byte) (string, error) {
			n, err := countTags(c.List + ".tags")
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%d tags", n), nil
		},
	}
}

func (b *bench) floorLeg() indexLeg {
	return indexLeg{
		name: legFloor,
		argv: func(c *corpus) []string { return []string{b.cfg.Self, "floor", c.List} },
		check: func(c *corpus, stdout []byte) (string, error) {
			var r floorResult
			if err := json.Unmarshal(stdout, &r); err != nil {
				return "", fmt.Errorf("read the floor's result: %w", err)
			}
			if r.Files+r.NoGrammar+r.Unreadable != len(c.Files) {
				return "", fmt.Errorf("the floor saw %d files, the walk listed %d", r.Files+r.NoGrammar+r.Unreadable, len(c.Files))
			}
			what := fmt.Sprintf("%d files parsed, %d with syntax errors", r.Files, r.SyntaxErrs)
			if r.NoGrammar > 0 {
				what += fmt.Sprintf(", %d in a language the floor has no grammar for", r.NoGrammar)
			}
			return what, nil
		},
	}
}

// countTags counts the tag lines of a ctags file (pseudo-tags start with "!_").
func countTags(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("read tags: %w", err)
	}
	defer f.Close()
	n := 0
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && !bytes.HasPrefix(line, []byte("!_")) {
			n++
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return 0, fmt.Errorf("read tags %s: %w", filepath.Base(path), err)
		}
	}
}

// findCtags resolves the ctags binary and says why the leg cannot run when it
// cannot: missing, or a ctags that is not universal-ctags.
func findCtags(ctx context.Context, name string) (path, version, status string) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", "", "not installed (apt-get install universal-ctags)"
	}
	out, err := exec.CommandContext(ctx, p, "--version").Output()
	first, _, _ := strings.Cut(string(out), "\n")
	if err != nil || !strings.Contains(first, "Universal Ctags") {
		return "", first, "not installed: " + p + " is not universal-ctags"
	}
	return p, strings.TrimSpace(first), "ok"
}
