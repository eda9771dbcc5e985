package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// The golang.Snapshot of the last Go load is kept in snapshotFile next to the
// store (gob), and metaGoSnapshot holds the SHA-256 of that file's bytes, so a
// file that does not belong to this database (a rebuilt or replaced store, an
// interrupted write) is never used. It was a JSON value in meta: on 1,000 Go
// files, 570 KB read, decoded and rewritten on every Go run cost about 30 ms
// of a 115 ms body edit. metaGoModFiles holds its ModFiles alone (JSON),
// checked on every run.
const (
	metaGoSnapshot = "go_snapshot"
	metaGoModFiles = "go_mod_files"
	snapshotFile   = "go_snapshot.gob"
)

// goRun is what the Go leg of a run produced.
type goRun struct {
	facts []graph.FileFacts
	done  map[string]bool // files whose facts are in facts
	// more are Go files that were not changed but must be re-extracted by the file
	// extractor: after a full load, those the type checker no longer covers.
	more []File
	// snapshot is saved once the facts are stored when saveSnapshot is set (nil
	// clears it: the module no longer loads).
	snapshot     *golang.Snapshot
	saveSnapshot bool
	// loadError is why the module did not load (saved with the snapshot).
	loadError string
}

// extractGoChanges brings the Go files up to date. An edit of files in place
// re-checks the packages that own them, and after a surface edit (a type, a
// signature, a method, imports) the importers that may see it, without the go
// command (golang.Update: tens to hundreds of milliseconds). Anything else (a
// file added, removed or renamed, go.mod, build constraints, an edit that does
// not type-check, a package with errors) reloads the module with the go command,
// since Go edges cross files. Report says which and why.
//
// After a first pass (pending), the module is loaded whatever changed: its Go
// facts are definitions only until then.
func extractGoChanges(ctx context.Context, root string, st *store.Store, opts Options, scan *Scan, changes Changes, todo []File, removed []string, pending bool, rep *Report) (*goRun, error) {
	var mods map[string]string
	if !opts.Rebuild {
		mods = loadModFiles(ctx, st)
	}
	modFile, modChanged := golang.ModFilesChanged(root, mods)
	if !anyGo(todo) && !anyGoPath(removed) && !modChanged && !pending {
		return &goRun{done: map[string]bool{}}, nil
	}
	var snap *golang.Snapshot
	if !opts.Rebuild && !pending {
		snap = loadSnapshot(ctx, st)
	}
	// Export data written by earlier updates that the stored snapshot no longer
	// names (a newer update's was not saved, or a full load replaced it).
	opts.Go.ExportDir = goExportDir(st)
	golang.CleanExports(opts.Go.ExportDir, snap)
	switch {
	case pending:
		rep.GoFullReason = "the type checker's pass after the first answers"
	case snap == nil:
		rep.GoFullReason = "first Go load (or rebuild)"
	case modChanged:
		rep.GoFullReason = modFile + " changed"
	case anyGoPath(removed) || anyGo(changes.Added) || anyGoRenamed(changes.Renamed):
		rep.GoFullReason = "Go files added, removed or renamed"
	default:
		run, err := updateGo(ctx, root, st, snap, scan, changes.Changed, opts, rep)
		if err == nil {
			return run, nil
		}
		reason, ok := golang.IsFullLoadNeeded(err)
		if !ok {
			return nil, err
		}
		rep.GoFullReason = reason
	}
	return fullGo(ctx, root, st, opts, scan, todo, pending, rep)
}

// updateGo re-extracts edited Go files with golang.Update. After an edit
// inside bodies it keeps the implements edges the store has for them (no
// declaration changed, so they still hold; their lines follow the types). After
// a surface edit, Update re-checked the importers too and gives every file it
// re-extracted with its implements edges, and a snapshot to save.
func updateGo(ctx context.Context, root string, st *store.Store, snap *golang.Snapshot, scan *Scan, changed []File, opts Options, rep *Report) (*goRun, error) {
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
	scanned := make(map[string]bool, len(scan.Files))
	for _, f := range scan.Files {
		scanned[f.Rel] = true
	}
	run := &goRun{done: map[string]bool{}}
	for _, f := range up.Files {
		if !scanned[f.Path] {
			continue // excluded from the index, as after a full load
		}
		if !up.Implements {
			if err := keepImplements(ctx, st, &f); err != nil {
				return nil, err
			}
		}
		run.done[f.Path] = true
		run.facts = append(run.facts, f)
	}
	if up.Snapshot != nil {
		run.snapshot, run.saveSnapshot = up.Snapshot, true
	}
	rep.GoTypes, rep.GoErrors, rep.GoMode = true, snap.Errors, "incremental"
	rep.GoErrorList = snap.FirstErrors
	return run, nil
}

// goExportDir is where golang.Update writes export data: next to the store.
func goExportDir(st *store.Store) string { return filepath.Join(filepath.Dir(st.Path()), "go-export") }

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
// facts the store does not hold). A load made beforehand (opts.typed) is used
// instead of loading.
func fullGo(ctx context.Context, root string, st *store.Store, opts Options, scan *Scan, todo []File, pending bool, rep *Report) (*goRun, error) {
	run := &goRun{done: map[string]bool{}}
	var res *golang.Result
	var err error
	if opts.typed != nil {
		res, err = opts.typed.res, opts.typed.err
	} else {
		res, err = golang.Extract(ctx, root, opts.Go)
	}
	if err == nil {
		rep.GoTypes, rep.GoErrors, rep.GoMode = true, len(res.Errors), "full"
		rep.GoErrorList = golang.FirstErrors(res.Errors)
		run.snapshot = res.Snapshot
	} else if ctx.Err() != nil {
		return nil, ctx.Err()
	} else {
		run.loadError = golang.LoadErrorText(root, err)
		rep.GoLoadError = run.loadError
	}
	run.saveSnapshot = true
	if !rep.GoTypes {
		if pending {
			// The first pass read Go for its definitions only: the file
			// extractor reads it all now.
			run.more = unchangedGo(scan, run.done, todo)
		}
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
	// ones; the unchanged Go files the type checker did not cover (other
	// platforms', a package that did not load; after a first pass, whose facts
	// are definitions only) go to the file extractor.
	run.more = unchangedGo(scan, run.done, todo)
	return run, nil
}

// unchangedGo are the Go files of scan neither in done nor in todo.
func unchangedGo(scan *Scan, done map[string]bool, todo []File) []File {
	var out []File
	for _, f := range scan.Files {
		if f.Language == "go" && !done[f.Rel] && !contains(todo, f.Rel) {
			out = append(out, f)
		}
	}
	return out
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

// goSnapshotPath is where the Go snapshot of st's tree is kept.
func goSnapshotPath(st *store.Store) string {
	return filepath.Join(filepath.Dir(st.Path()), snapshotFile)
}

// loadSnapshot reads the snapshot the store's meta vouches for; none (a full
// load follows) when there is none, or the file is missing, altered or unreadable.
func loadSnapshot(ctx context.Context, st *store.Store) *golang.Snapshot {
	want, ok, err := st.Meta(ctx, metaGoSnapshot)
	if err != nil || !ok || want == "" {
		return nil
	}
	b, err := os.ReadFile(goSnapshotPath(st))
	if err != nil {
		return nil
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want {
		return nil
	}
	var s golang.Snapshot
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&s) != nil {
		return nil
	}
	return &s
}

// storeSnapshot saves s (nil: forgets the snapshot) with its module files. The
// file is written first and renamed into place, then meta is pointed at it.
func storeSnapshot(ctx context.Context, st *store.Store, s *golang.Snapshot) error {
	if s == nil {
		os.Remove(goSnapshotPath(st))
		if err := st.SetMeta(ctx, metaGoSnapshot, ""); err != nil {
			return err
		}
		return st.SetMeta(ctx, metaGoModFiles, "")
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		return fmt.Errorf("encode the Go snapshot: %w", err)
	}
	if err := writeFileAtomic(goSnapshotPath(st), buf.Bytes()); err != nil {
		return fmt.Errorf("save the Go snapshot: %w", err)
	}
	sum := sha256.Sum256(buf.Bytes())
	if err := st.SetMeta(ctx, metaGoSnapshot, hex.EncodeToString(sum[:])); err != nil {
		return err
	}
	return storeModFiles(ctx, st, s.ModFiles)
}

// storeModFiles records the module files whose change reloads the module.
func storeModFiles(ctx context.Context, st *store.Store, mods map[string]string) error {
	b, err := json.Marshal(mods)
	if err != nil {
		return err
	}
	return st.SetMeta(ctx, metaGoModFiles, string(b))
}

func anyGoRenamed(rs []Rename) bool {
	for _, r := range rs {
		if r.To.Language == "go" || strings.HasSuffix(r.From, ".go") {
			return true
		}
	}
	return false
}
