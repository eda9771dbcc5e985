package index

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// metaGoSnapshot holds the golang.Snapshot of the last full Go load (JSON);
// metaGoModFiles its ModFiles alone, checked on every run.
const (
	metaGoSnapshot = "go_snapshot"
	metaGoModFiles = "go_mod_files"
)

// goRun is what the Go leg of a run produced.
type goRun struct {
	facts []graph.FileFacts
	done  map[string]bool // files whose facts are in facts
	// more are Go files that were not changed but must be re-extracted by the file
	// extractor: after a full load, those the type checker no longer covers.
	more []File
	// snapshot and modFiles, when set, are saved once the facts are stored (JSON;
	// "" clears them).
	snapshot, modFiles *string
}

// extractGoChanges brings the Go files up to date. An edit inside function bodies
// re-checks only the packages that own the edited files (golang.Update, tens of
// milliseconds); anything else (a file added, removed or renamed, go.mod, an
// edited declaration, a package with errors) reloads the module with the go
// command, since Go edges cross files. Report says which and why.
func extractGoChanges(ctx context.Context, root string, st *store.Store, opts Options, scan *Scan, changes Changes, todo []File, removed []string, rep *Report) (*goRun, error) {
	var mods map[string]string
	if !opts.Rebuild {
		mods = loadModFiles(ctx, st)
	}
	modFile, modChanged := golang.ModFilesChanged(root, mods)
	if !anyGo(todo) && !anyGoPath(removed) && !modChanged {
		return &goRun{done: map[string]bool{}}, nil
	}
	var snap *golang.Snapshot
	if !opts.Rebuild {
		snap = loadSnapshot(ctx, st)
	}
	switch {
	case snap == nil:
		rep.GoFullReason = "first Go load (or rebuild)"
	case modChanged:
		rep.GoFullReason = modFile + " changed"
	case anyGoPath(removed) || anyGo(changes.Added) || anyGoRenamed(changes.Renamed):
		rep.GoFullReason = "Go files added, removed or renamed"
	default:
		run, err := updateGo(ctx, root, st, snap, changes.Changed, opts, rep)
		if err == nil {
			return run, nil
		}
		reason, ok := golang.IsFullLoadNeeded(err)
		if !ok {
			return nil, err
		}
		rep.GoFullReason = reason
	}
	return fullGo(ctx, root, st, opts, scan, todo, rep)
}

// updateGo re-extracts edited Go files with golang.Update, keeping the implements
// edges the store has for them (Update only succeeds when no declaration changed,
// so they still hold; their lines follow the types).
func updateGo(ctx context.Context, root string, st *store.Store, snap *golang.Snapshot, changed []File, opts Options, rep *Report) (*goRun, error) {
	var rels []string
	for _, f := range changed {
		if f.Language == "go" {
			rels = append(rels, f.Rel)
		}
	}
	up, err := golang.Update(ctx, root, snap, rels, opts.Go)
	if err != nil {
		return nil, err
	}
	run := &goRun{done: map[string]bool{}}
	for _, f := range up.Files {
		if err := keepImplements(ctx, st, &f); err != nil {
			return nil, err
		}
		run.done[f.Path] = true
		run.facts = append(run.facts, f)
	}
	rep.GoTypes, rep.GoErrors, rep.GoMode = true, snap.Errors, "incremental"
	return run, nil
}

func keepImplements(ctx context.Context, st *store.Store, f *graph.FileFacts) error {
	old, err := st.NodesInFile(ctx, f.Path)
	if err != nil {
		return err
	}
	line := map[string]int{}
	for _, n := range f.Nodes {
		line[n.QName] = n.Line
	}
	for _, n := range old {
		if n.Kind == graph.KindInterface || n.Kind == graph.KindFunction || n.Kind == graph.KindMethod || n.Kind == graph.KindField {
			continue
		}
		edges, err := st.Edges(ctx, n.QName, graph.EdgeImplements, store.Out)
		if err != nil {
			return err
		}
		for _, e := range edges {
			if e.File != f.Path {
				continue
			}
			if l, ok := line[e.From]; ok {
				e.Line = l
				f.Edges = append(f.Edges, e)
			}
		}
	}
	return nil
}

// fullGo runs the type checker over the module and keeps its snapshot for the
// next run's Update (saved after the facts: a snapshot must never describe
// facts the store does not hold).
func fullGo(ctx context.Context, root string, st *store.Store, opts Options, scan *Scan, todo []File, rep *Report) (*goRun, error) {
	run := &goRun{done: map[string]bool{}}
	res, err := golang.Extract(ctx, root, opts.Go)
	snapJSON, modsJSON := "", ""
	if err == nil {
		rep.GoTypes, rep.GoErrors, rep.GoMode = true, len(res.Errors), "full"
		if b, err := json.Marshal(res.Snapshot); err == nil {
			snapJSON = string(b)
		}
		if b, err := json.Marshal(res.Snapshot.ModFiles); err == nil {
			modsJSON = string(b)
		}
	} else if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	run.snapshot, run.modFiles = &snapJSON, &modsJSON
	if !rep.GoTypes {
		return run, nil
	}
	scanned := make(map[string]bool, len(scan.Files))
	for _, f := range scan.Files {
		scanned[f.Rel] = true
	}
	for _, f := range res.Files {
		// The go command loads every package of the module; keep what the walk
		// kept (.gitignore and excludes apply to Go too).
		if scanned[f.Path] {
			run.done[f.Path] = true
			run.facts = append(run.facts, f)
		}
	}
	// All Go files are replaced with the module's fresh facts, not only the changed
	// ones; the unchanged Go files the type checker did not cover go to the file
	// extractor.
	for _, f := range scan.Files {
		if f.Language == "go" && !run.done[f.Rel] && !contains(todo, f.Rel) {
			run.more = append(run.more, f)
		}
	}
	return run, nil
}

func loadModFiles(ctx context.Context, st *store.Store) map[string]string {
	v, ok, err := st.Meta(ctx, metaGoModFiles)
	if err != nil || !ok || v == "" {
		return nil
	}
	var m map[string]string
	if json.Unmarshal([]byte(v), &m) != nil {
		return nil
	}
	return m
}

func loadSnapshot(ctx context.Context, st *store.Store) *golang.Snapshot {
	v, ok, err := st.Meta(ctx, metaGoSnapshot)
	if err != nil || !ok || v == "" {
		return nil
	}
	var s golang.Snapshot
	if json.Unmarshal([]byte(v), &s) != nil {
		return nil
	}
	return &s
}

func anyGoRenamed(rs []Rename) bool {
	for _, r := range rs {
		if r.To.Language == "go" || strings.HasSuffix(r.From, ".go") {
			return true
		}
	}
	return false
}
