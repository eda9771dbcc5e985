package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Change kinds of the incremental phase.
const (
	changeNone = "no change"
	changeBody = "function body"
	changeAdd  = "new function"
)

// changeStats is the incremental re-index after one kind of one-file change.
type changeStats struct {
	Kind    string `json:"kind"`
	Changes int    `json:"changes"`
	// Wall time of `albert-code graph index` (incremental) from exec to exit.
	WallMedianMs float64 `json:"wall_median_ms"`
	WallP95Ms    float64 `json:"wall_p95_ms"`
	RSSMedianMiB float64 `json:"rss_median_mib"`
	// EngineMedianMs is the time the engine reports for its own run (index.Run,
	// without process start, opening the store and exit).
	EngineMedianMs float64 `json:"engine_median_ms"`
	// ExtractedMedian is how many files the engine re-extracted per change.
	ExtractedMedian float64 `json:"extracted_median"`
	// GoFull counts the runs that reloaded the whole Go module, and GoFullReason
	// is the engine's reason for the last one.
	GoFull       int    `json:"go_full"`
	GoFullReason string `json:"go_full_reason,omitempty"`
	// Verified counts the changes the index showed afterwards: the file's new
	// hash in the manifest, and for a new function, its node.
	Verified int `json:"verified"`
}

// target is a function definition the body change may edit.
type target struct {
	file, lang string
	line       int
}

// incremental edits c one file at a time, each change in a different file and
// left in place, and measures the re-index that follows each edit.
func (b *bench) incremental(ctx context.Context, c *corpus) ([]changeStats, error) {
	dbPath := filepath.Join(c.Dir, ".albert-code", "graph", "graph.db")
	if _, err := os.Stat(dbPath); err != nil {
		argv := append(append([]string{}, b.cfg.Albert...), "graph", "index", "--rebuild", "--json", c.Dir)
		if _, _, err := b.launch.run(ctx, c.Dir, argv...); err != nil {
			return nil, fmt.Errorf("first index of %s: %w", c.Name, err)
		}
	}
	targets, err := functionTargets(ctx, dbPath)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(b.cfg.Seed, 1))
	rng.Shuffle(len(targets), func(i, j int) { targets[i], targets[j] = targets[j], targets[i] })
	files := append([]string{}, c.sourceFiles()...)
	rng.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })

	var out []changeStats
	none, err := b.measureChanges(ctx, c, dbPath, changeNone, func(int) (string, []byte, string, bool) { return "", nil, "", true })
	if err != nil {
		return nil, err
	}
	out = append(out, none)

	used := map[string]bool{}
	next := 0
	body, err := b.measureChanges(ctx, c, dbPath, changeBody, func(n int) (string, []byte, string, bool) {
		for ; next < len(targets); next++ {
			t := targets[next]
			if used[t.file] {
				continue
			}
			src, err := os.ReadFile(filepath.Join(c.Dir, filepath.FromSlash(t.file)))
			if err != nil {
				continue
			}
			if edited, ok := editBody(src, t.lang, t.line, n); ok {
				used[t.file] = true
				next++
				return t.file, edited, "", true
			}
		}
		return "", nil, "", false
	})
	if err != nil {
		return nil, err
	}
	out = append(out, body)

	nextFile := 0
	add, err := b.measureChanges(ctx, c, dbPath, changeAdd, func(n int) (string, []byte, string, bool) {
		for ; nextFile < len(files); nextFile++ {
			rel := files[nextFile]
			src, err := os.ReadFile(filepath.Join(c.Dir, filepath.FromSlash(rel)))
			if err != nil {
				continue
			}
			lang := c.languageOf(rel)
			if edited, ok := addFunction(src, lang, n); ok {
				nextFile++
				return rel, edited, addedName(lang, n), true
			}
		}
		return "", nil, "", false
	})
	if err != nil {
		return nil, err
	}
	return append(out, add), nil
}

// editFunc makes change n: the file to write, its new content and, for a new
// function, the name the index must then hold. ok is false when no file is left
// to change. An empty file means a run with nothing changed.
type editFunc func(n int) (file string, content []byte, newName string, ok bool)

// measureChanges makes up to cfg.Changes changes with edit, runs the incremental
// index after each one and summarises the runs.
func (b *bench) measureChanges(ctx context.Context, c *corpus, dbPath, kind string, edit editFunc) (changeStats, error) {
	st := changeStats{Kind: kind}
	var wall, rss, extracted, engine []float64
	var spent time.Duration
	for i := range b.cfg.Changes {
		if b.cfg.ChangeBudget > 0 && spent > b.cfg.ChangeBudget {
			b.logf("%-14s %s: stopped after %d changes, over the %v budget", c.Name, kind, i, b.cfg.ChangeBudget)
			break
		}
		b.changeSeq++
		rel, content, newName, ok := edit(b.changeSeq)
		if !ok {
			b.logf("%-14s %s: no file left to change after %d changes", c.Name, kind, i)
			break
		}
		if rel != "" {
			if err := os.WriteFile(filepath.Join(c.Dir, filepath.FromSlash(rel)), content, 0o644); err != nil {
				return st, err
			}
		}
		argv := append(append([]string{}, b.cfg.Albert...), "graph", "index", "--json", c.Dir)
		m, stdout, err := b.launch.run(ctx, c.Dir, argv...)
		if err != nil {
			return st, fmt.Errorf("re-index %s after a %s change to %s: %w", c.Name, kind, rel, err)
		}
		var r indexReport
		if err := json.Unmarshal(stdout, &r); err != nil {
			return st, fmt.Errorf("read the index report: %w", err)
		}
		verified, err := verifyChange(ctx, dbPath, rel, content, newName)
		if err != nil {
			return st, err
		}
		if verified {
			st.Verified++
		}
		if r.GoMode == "full" {
			st.GoFull++
			st.GoFullReason = r.GoReason
		}
		spent += m.Wall
		wall, rss, extracted = append(wall, ms(m.Wall)), append(rss, mib(m.MaxRSS)), append(extracted, float64(r.Extracted))
		engine = append(engine, float64(r.DurationNs)/1e6)
		b.logf("%-14s %-14s %2d/%d wall %8.1f ms (engine %8.1f)  rss %6.1f MiB  extracted %d  verified %v  %s %s",
			c.Name, kind, i+1, b.cfg.Changes, ms(m.Wall), float64(r.DurationNs)/1e6, mib(m.MaxRSS), r.Extracted, verified, rel, r.GoMode)
	}
	st.Changes = len(wall)
	st.WallMedianMs, st.WallP95Ms = quantile(wall, 0.5), quantile(wall, 0.95)
	st.RSSMedianMiB, st.ExtractedMedian = quantile(rss, 0.5), quantile(extracted, 0.5)
	st.EngineMedianMs = quantile(engine, 0.5)
	return st, nil
}

// verifyChange says whether the index reflects the change: the manifest holds
// the file's new hash and the new function, if any, is a node. A run with no
// change is verified when the file count did not move (nothing to check).
func verifyChange(ctx context.Context, dbPath, rel string, content []byte, newName string) (bool, error) {
	if rel == "" {
		return true, nil
	}
	st, err := store.OpenReadOnly(dbPath)
	if err != nil {
		return false, err
	}
	defer st.Close()
	manifest, err := st.Manifest(ctx)
	if err != nil {
		return false, err
	}
	sum := sha256.Sum256(content)
	if manifest[rel] != hex.EncodeToString(sum[:]) {
		return false, nil
	}
	if newName == "" {
		return true, nil
	}
	nodes, err := st.NodesByName(ctx, newName)
	return len(nodes) > 0, err
}

// functionTargets lists the functions and methods of the index in languages the
// floor's grammars read, in a stable order.
func functionTargets(ctx context.Context, dbPath string) ([]target, error) {
	st, err := store.OpenReadOnly(dbPath)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	_, rows, _, err := st.Query(ctx, `SELECT file, language, line FROM nodes
		WHERE kind IN ('function', 'method') AND line > 0 ORDER BY file, line, qname`, store.MaxRows, 0)
	if err != nil {
		return nil, fmt.Errorf("list functions: %w", err)
	}
	var out []target
	for _, r := range rows {
		t := target{file: fmt.Sprint(r[0]), lang: fmt.Sprint(r[1])}
		if n, ok := r[2].(int64); ok {
			t.line = int(n)
		}
		if floorGrammars[t.lang] != nil {
			out = append(out, t)
		}
	}
	return out, nil
}
