package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// Modes. "engine" indexes the corpus as a user would; "tree-sitter" indexes a
// copy of a Go corpus whose module does not load, which makes the engine fall
// back to tree-sitter for Go (index.Run does when golang.Extract fails): the
// copy's go.mod asks for a Go release that does not exist, which the engine's
// loader (GOTOOLCHAIN=local) refuses. The module path stays, as it would in a
// module that merely fails to build, for the cross-file pass to map import
// paths to folders.
const (
	ModeEngine     = "engine"
	ModeTreeSitter = "tree-sitter"
)

// Settings are what every run shares.
type Settings struct {
	Engine    string  // the albert-code binary
	N         int     // questions per kind
	ZeroShare float64 // of them, the share with an empty ground truth
	Seed      string
	Tokens    bool // also measure the characters read, engine (MCP) against grep-and-read
}

// Run is one corpus measured in one mode.
type Run struct {
	Corpus   string              `json:"corpus"`
	Language string              `json:"language"`
	Tool     string              `json:"tool"`
	Mode     string              `json:"mode"`
	Index    map[string]any      `json:"index"`
	Kinds    []Summary           `json:"kinds"`
	Scored   map[string][]Scored `json:"questions"`
	Tokens   []TokenSummary      `json:"tokens,omitempty"`
	Neutral  NeutralShare        `json:"neutral_share"`

	index *index
}

// NeutralShare is how many call sites the ground truth could not resolve.
type NeutralShare struct {
	Unresolvable int `json:"unresolvable_sites"`
	Resolved     int `json:"resolved_edges"`
}

// measure indexes one corpus in one mode, asks the sampled questions and scores
// the answers.
func measure(ctx context.Context, name string, t *truth.File, mode string, set Settings) (*Run, error) {
	// The engine indexes a copy: its index is written into the folder, and the
	// corpus may belong to a ground-truth program still reading it.
	tmp, err := os.MkdirTemp("", "graphacc-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, filepath.Base(t.Root))
	if err := copyTree(t.Root, dir); err != nil {
		return nil, fmt.Errorf("copy %s: %w", t.Root, err)
	}
	if mode == ModeTreeSitter {
		if err := unloadable(dir); err != nil {
			return nil, err
		}
	}
	c := cli{bin: set.Engine, repo: dir}
	rep, err := c.index(ctx)
	if err != nil {
		return nil, err
	}
	if mode == ModeTreeSitter && rep["go_types"] == true {
		return nil, fmt.Errorf("index %s: the engine type-checked the module the tree-sitter mode made unloadable", dir)
	}
	run := &Run{Corpus: name, Language: t.Language, Tool: t.Tool, Mode: mode, Index: indexFacts(rep),
		Scored: map[string][]Scored{}, Neutral: NeutralShare{Unresolvable: len(t.Unresolvable), Resolved: len(t.Calls)}}
	ix := newIndex(t)
	run.index = ix
	questions := map[string][]Question{}
	for _, kind := range Kinds {
		questions[kind] = ix.sample(kind, set.N, set.ZeroShare, set.Seed)
		scored, err := askAll(ctx, c, ix, kind, questions[kind])
		if err != nil {
			return nil, err
		}
		run.Scored[kind] = scored
		run.Kinds = append(run.Kinds, summarize(kind, run.Scored[kind]))
	}
	if set.Tokens && mode == ModeEngine {
		if run.Tokens, err = measureTokens(ctx, set.Engine, dir, ix, questions); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// askers is how many questions are in flight at once. Judgement: each is a short
// process that mostly waits to be scheduled, so a few overlap well even on two
// cores.
const askers = 4

// askAll asks the questions through the command line, a few at a time, and scores
// the answers in question order.
func askAll(ctx context.Context, c cli, ix *index, kind string, qs []Question) ([]Scored, error) {
	out := make([]Scored, len(qs))
	errs := make([]error, len(qs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range askers {
		wg.Go(func() {
			for i := range next {
				items, note, err := askAbout(ctx, c.ask, engineQuestion(kind), qs[i].About)
				out[i], errs[i] = ix.score(qs[i], items, note), err
			}
		})
	}
	for i := range qs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, errors.Join(errs...)
}

// indexFacts keeps the parts of the engine's index report that explain a score.
func indexFacts(rep map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range []string{"files", "go_types", "go_errors", "duration_ns"} {
		if v, ok := rep[k]; ok {
			out[k] = v
		}
	}
	for _, k := range []string{"partial", "quarantined", "skipped"} {
		if v, ok := rep[k].([]any); ok {
			out[k] = len(v)
		}
	}
	return out
}

// unreleasedGo is a go directive no toolchain satisfies.
const unreleasedGo = "go 1.999"

// unloadable makes the Go module at dir fail to load: its go directive names
// an unreleased Go, and a go.work that could take over is removed.
func unloadable(dir string) error {
	if err := os.Remove(filepath.Join(dir, "go.work")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	path := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no module: the engine uses tree-sitter anyway
	}
	if err != nil {
		return err
	}
	goLine := regexp.MustCompile(`(?m)^go[ \t]+\S+[ \t]*$`)
	if goLine.Match(data) {
		data = goLine.ReplaceAll(data, []byte(unreleasedGo))
	} else {
		data = append(data, "\n"+unreleasedGo+"\n"...)
	}
	return os.WriteFile(path, data, 0o644)
}

// copyTree copies a corpus, leaving out version control, dependencies and any
// index.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".albert-code", "node_modules":
				if rel != "." {
					return filepath.SkipDir
				}
			}
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
