package index

import (
	"context"
	"path"
	"runtime"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// A first pass writes while it reads: folders are extracted on every core but
// one's share, and each batch of files goes to the store as soon as it is
// ready, so that the store's writes (one writer, about two thirds of the
// pass's CPU time on x/tools) overlap the parsing instead of following it.
// A folder is the unit because a Go package's definitions are settled
// together (firstGo.finish: its node's home, names shared with files out of
// the build, kinds of types defined as others).
//
// The batches are separate transactions: a reader may see a first pass half
// written, which the store already says is pending the type checker's pass
// (settlePending is recorded first), and a first pass that stops midway is
// redone whole (the extractor version is recorded last).

// firstBatchFiles is how many files one transaction of a first pass writes.
// Judgement: large enough that a transaction's fixed cost (statements
// prepared, the generation bumped, the commit) stays small, small enough that
// the first batch is written while most folders are still being read.
const firstBatchFiles = 128

// streamFirstPass extracts files folder by folder and writes them in batches,
// removed paths with the first; it fills rep's counts, its partial and
// quarantined lists, and its extract and write phases. Into an empty store,
// the graph's secondary indexes are built once the batches are in (see
// store.DeferIndexes), also when the pass fails, so that a store kept open
// never answers without them for long.
func streamFirstPass(ctx context.Context, root string, st *store.Store, files []File, removed []string, opts Options, rep *Report) error {
	build, err := st.DeferIndexes(ctx)
	if err != nil {
		return err
	}
	err = streamBatches(ctx, root, st, files, removed, opts, rep)
	t := time.Now()
	if berr := build(context.WithoutCancel(ctx)); err == nil {
		err = berr
	}
	ms := float64(time.Since(t).Microseconds()) / 1000
	rep.Phases["extract_and_write"] += ms
	rep.Phases["write"] += ms
	return err
}

func streamBatches(ctx context.Context, root string, st *store.Store, files []File, removed []string, opts Options, rep *Report) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	units := byFolder(files)
	importPath := golang.ImportPaths(root)
	ready := make(chan []graph.FileFacts)
	var progress sync.Mutex
	done := 0
	work := make(chan []File)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for unit := range work {
				g := newFirstGo(importPath, opts.Extract)
				facts := make([]graph.FileFacts, len(unit))
				for i, f := range unit {
					facts[i] = extractOne(ctx, root, f, g.extract)
					if opts.Progress != nil {
						progress.Lock()
						done++
						opts.Progress(done, len(files))
						progress.Unlock()
					}
				}
				g.finish(facts)
				select {
				case ready <- facts:
				case <-ctx.Done():
				}
			}
		})
	}
	go func() {
		defer close(ready)
		defer wg.Wait()
		defer close(work)
		for _, u := range units {
			select {
			case work <- u:
			case <-ctx.Done():
				return
			}
		}
	}()

	var batch []graph.FileFacts
	var writing time.Duration
	write := func() error {
		t := time.Now()
		err := st.ReplaceFiles(ctx, batch, removed)
		writing += time.Since(t)
		for _, f := range batch {
			switch {
			case f.Quarantined:
				rep.Quarantined = append(rep.Quarantined, Skip{f.Path, f.ParseError})
			case f.ParseError != "":
				rep.Partial = append(rep.Partial, Skip{f.Path, f.ParseError})
			}
		}
		rep.Extracted += len(batch)
		batch, removed = batch[:0], nil
		return err
	}
	var err error
	for facts := range ready {
		if err != nil {
			continue // drain: the workers stop at the cancel
		}
		if batch = append(batch, facts...); len(batch) >= firstBatchFiles {
			if err = write(); err != nil {
				cancel()
			}
		}
	}
	if err == nil {
		err = ctx.Err()
	}
	if err == nil && (len(batch) > 0 || len(removed) > 0) {
		err = write()
	}
	rep.Phases["extract_and_write"] = msSince(start)
	rep.Phases["write"] = float64(writing.Microseconds()) / 1000
	return err
}

// byFolder groups files by their folder, in the order of their first file.
func byFolder(files []File) [][]File {
	at := map[string]int{}
	var units [][]File
	for _, f := range files {
		dir := path.Dir(f.Rel)
		i, ok := at[dir]
		if !ok {
			i = len(units)
			at[dir] = i
			units = append(units, nil)
		}
		units[i] = append(units[i], f)
	}
	return units
}
