package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/resolve"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// FileExtractor extracts one file's facts (the tree-sitter layer). It must set every
// row's File to rel and recover from its parser's panics itself.
type FileExtractor func(ctx context.Context, rel, lang string, src []byte) (graph.FileFacts, error)

// Options configure an indexing run.
type Options struct {
	Limits Limits
	// Rebuild ignores the manifest and re-extracts every file.
	Rebuild bool
	// Extract handles files the Go type checker does not: other languages, and Go
	// code that does not load. Nil records those files without facts, with a
	// parse error that says so.
	Extract FileExtractor
	// Go configures the type-checked Go extraction.
	Go golang.Options
	// Progress, when set, hears how many of the files to extract are done.
	Progress func(done, total int)
	// FirstPass answers first: Go is read for its definitions only (go/parser,
	// firstgo.go), the cross-file pass waits, and the store says
	// golang.TypesPending until a run without FirstPass lands the type
	// checker's pass (RunInPasses, or a Live in the background).
	FirstPass bool
	// HoldTypes, when set, holds a Live's background type checker's pass back
	// until it is closed, so that tests of a long-lived process can ask
	// questions of the first pass for certain.
	HoldTypes <-chan struct{}
	// typed is the module's load made beforehand, alongside the first pass:
	// the Go leg uses it instead of loading.
	typed *typedLoad
}

// Report says what a run did. Nothing is dropped silently: skipped paths, files
// without facts and Go loading errors are all listed or counted.
type Report struct {
	Root        string         `json:"root"`
	Files       int            `json:"files"`
	Extracted   int            `json:"extracted"`
	Unchanged   int            `json:"unchanged"`
	Removed     int            `json:"removed"`
	Renamed     int            `json:"renamed"`
	Languages   map[string]int `json:"languages"`
	Skipped     []Skip         `json:"skipped,omitempty"`
	Truncated   bool           `json:"truncated,omitempty"`
	Partial     []Skip         `json:"partial,omitempty"` // files with parse errors or no extraction
	Quarantined []Skip         `json:"quarantined,omitempty"`
	// LeftOut counts every file the index does not hold, or holds in part, by
	// reason, with a bounded list; Skipped lists the same without the files of
	// unknown languages, which are many and seldom news.
	LeftOut *LeftOut `json:"left_out,omitempty"`
	GoTypes bool     `json:"go_types"` // Go edges came from the type checker
	// GoLoadError says why the module did not load, when it did not: Go is then
	// extracted by tree-sitter and its answers are lower bounds.
	GoLoadError string `json:"go_load_error,omitempty"`
	GoErrors    int    `json:"go_errors,omitempty"`
	// GoErrorList is the first golang.MaxListedErrors of them.
	GoErrorList []golang.Error `json:"go_error_list,omitempty"`
	// GoMode is "incremental" when only the packages owning edited files were
	// re-checked, "full" when the module was loaded; GoFullReason says why.
	GoMode       string `json:"go_mode,omitempty"`
	GoFullReason string `json:"go_full_reason,omitempty"`
	// TypesPending: this was a first pass; Go answers are lower bounds until the
	// type checker's pass lands.
	TypesPending bool          `json:"types_pending,omitempty"`
	Commit       string        `json:"commit,omitempty"`
	Duration     time.Duration `json:"duration_ns"`
	// Phases is where the run's time went, in milliseconds: scan (walk and
	// hash), go (the type checker's load and extraction), extract (the other
	// extractors, on every core), write (the store's transaction), resolve
	// (the cross-file pass), finish (what is recorded after).
	Phases map[string]float64 `json:"phases_ms,omitempty"`

	// ExtractorChanged: the index was written by extractors of another
	// ExtractorVersion, so every file was extracted again.
	ExtractorChanged bool `json:"extractor_changed,omitempty"`

	// Resolve counts what the cross-file resolution pass did (internal/graph/resolve).
	Resolve *resolve.Counts `json:"resolve,omitempty"`
}

// ExtractorVersion names what the extractors (tree-sitter specs, the Go
// extractor) produce. A change to the facts they write for the same file must
// move it: an index written by another version has every file extracted again,
// since the content hashes alone would keep the old facts of unchanged files.
const ExtractorVersion = "15"

// metaExtractorVersion is the meta key of the ExtractorVersion that wrote the facts.
const metaExtractorVersion = "extractor_version"

// Run brings the store up to date with the tree at root: it scans, diffs against
// the manifest, extracts what changed and replaces those files' facts in one
// transaction.
//
// Go edges cross files (a renamed function changes its callers' edges): an edit
// inside bodies re-checks the packages that own the edited files, anything else
// reloads the module and replaces all Go files together (extractGoChanges). Other
// files are independent units.
func Run(ctx context.Context, root string, st *store.Store, opts Options) (*Report, error) {
	start := time.Now()
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	stamps := stampPath(st)
	if opts.Rebuild {
		os.Remove(stamps) // a rebuild trusts nothing it did not read
	}
	scan, err := ScanTreeStamped(ctx, root, opts.Limits, stamps)
	if err != nil {
		return nil, err
	}
	return runScan(ctx, root, st, opts, scan, start)
}

// runScan is Run on a scan already made: root is absolute.
func runScan(ctx context.Context, root string, st *store.Store, opts Options, scan *Scan, start time.Time) (*Report, error) {
	// Go the type checker does not load keeps the type checker's names.
	opts.Extract = golang.FallbackNames(root, opts.Extract)
	version, _, err := st.Meta(ctx, metaExtractorVersion)
	if err != nil {
		return nil, err
	}
	manifest := map[string]string{}
	if !opts.Rebuild && version == ExtractorVersion {
		if manifest, err = st.Manifest(ctx); err != nil {
			return nil, err
		}
	}
	changes := Diff(manifest, scan.Files)
	rep := &Report{Root: root, Files: len(scan.Files), Unchanged: changes.Unchanged, Removed: len(changes.Removed),
		Renamed: len(changes.Renamed), Skipped: scan.Skipped, Truncated: scan.Truncated, Languages: map[string]int{},
		ExtractorChanged: version != "" && version != ExtractorVersion}
	for _, f := range scan.Files {
		rep.Languages[f.Language]++
	}

	// Facts are keyed by path; a rename is its old path removed and its new one added.
	todo := append(append([]File{}, changes.Added...), changes.Changed...)
	removed := append([]string{}, changes.Removed...)
	for _, r := range changes.Renamed {
		todo = append(todo, r.To)
		removed = append(removed, r.From)
	}
	pending, err := typesPending(ctx, st)
	if err != nil {
		return nil, err
	}
	rep.Phases = map[string]float64{"scan": msSince(start)}
	gr := &goRun{done: map[string]bool{}}
	if !opts.FirstPass {
		goStart := time.Now()
		if gr, err = extractGoChanges(ctx, root, st, opts, scan, changes, todo, removed, pending, rep); err != nil {
			return nil, err
		}
		rep.Phases["go"] = msSince(goStart)
	}
	goDone := gr.done
	todo = append(todo, gr.more...)
	var rest []File
	for _, f := range todo {
		if !goDone[f.Rel] {
			rest = append(rest, f)
		}
	}
	if opts.FirstPass {
		// Recorded first: a reader of the batches sees them pending.
		if err := settlePending(ctx, st, opts, pending, anyGo(todo), rep); err != nil {
			return nil, err
		}
		if err := streamFirstPass(ctx, root, st, rest, removed, opts, rep); err != nil {
			return nil, err
		}
	} else {
		if err := writeExtracted(ctx, root, st, rest, removed, opts, gr, rep); err != nil {
			return nil, err
		}
		if err := settlePending(ctx, st, opts, pending, anyGo(todo), rep); err != nil {
			return nil, err
		}
	}
	phase := time.Now()
	if !opts.FirstPass {
		if rep.Resolve, err = resolve.Update(ctx, st, root, resolve.Options{}); err != nil {
			return nil, err
		}
		rep.Phases["resolve"] = msSince(phase)
		phase = time.Now()
	}
	if rep.LeftOut, err = recordLeftOut(ctx, st, scan.Skipped); err != nil {
		return nil, err
	}
	rep.Skipped = notable(scan.Skipped)
	if gr.saveSnapshot {
		if err := storeSnapshot(ctx, st, gr.snapshot); err != nil {
			return nil, err
		}
		if err := st.SetMeta(ctx, golang.MetaLoadError, gr.loadError); err != nil {
			return nil, err
		}
		if gr.loadError != "" {
			// No snapshot records the module files: watch the root's, so
			// that fixing them reloads.
			if err := storeModFiles(ctx, st, golang.RootModFiles(root)); err != nil {
				return nil, err
			}
		}
	}
	rep.Commit = gitHead(ctx, root)
	for k, v := range map[string]string{store.MetaIndexedCommit: rep.Commit, store.MetaIndexedAt: time.Now().UTC().Format(time.RFC3339),
		store.MetaRoot: root, metaExtractorVersion: ExtractorVersion} {
		if err := st.SetMeta(ctx, k, v); err != nil {
			return nil, err
		}
	}
	rep.Phases["finish"] = msSince(phase)
	rep.Duration = time.Since(start)
	return rep, nil
}

// msSince is the time since t in milliseconds, to the microsecond.
func msSince(t time.Time) float64 {
	return float64(time.Since(t).Microseconds()) / 1000
}

// writeExtracted extracts files on every core, then writes them with the Go
// leg's facts and the removed paths in one transaction. The type checker's
// facts are written last: a name they share with a file it did not read
// (another platform's) is theirs, since the store's upsert gives a name to
// the file written last.
func writeExtracted(ctx context.Context, root string, st *store.Store, files []File, removed []string, opts Options, gr *goRun, rep *Report) error {
	phase := time.Now()
	facts := append(extractFiles(ctx, root, files, opts, len(gr.done)), gr.facts...)
	if err := ctx.Err(); err != nil {
		return err
	}
	rep.Phases["extract"] = msSince(phase)
	phase = time.Now()
	for _, f := range facts {
		switch {
		case f.Quarantined:
			rep.Quarantined = append(rep.Quarantined, Skip{f.Path, f.ParseError})
		case f.ParseError != "":
			rep.Partial = append(rep.Partial, Skip{f.Path, f.ParseError})
		}
	}
	rep.Extracted = len(facts)
	if err := st.ReplaceFiles(ctx, facts, removed); err != nil {
		return err
	}
	rep.Phases["write"] = msSince(phase)
	return nil
}

// extractFiles runs the file extractor over files in parallel, one file per worker
// at a time, each file read once.
func extractFiles(ctx context.Context, root string, files []File, opts Options, already int) []graph.FileFacts {
	out := make([]graph.FileFacts, len(files))
	total := len(files) + already
	var mu sync.Mutex
	done := already
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for i := range work {
				out[i] = extractOne(ctx, root, files[i], opts.Extract)
				if opts.Progress != nil {
					mu.Lock()
					done++
					opts.Progress(done, total)
					mu.Unlock()
				}
			}
		})
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}

func extractOne(ctx context.Context, root string, f File, extract FileExtractor) graph.FileFacts {
	base := graph.FileFacts{Path: f.Rel, Language: f.Language, Hash: f.Hash, Size: f.Size}
	if extract == nil && builtin[f.Language] == nil {
		base.ParseError = "no extractor for " + f.Language + " in this build"
		return base
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Rel)))
	if err != nil {
		base.ParseError = "read: " + err.Error()
		return base
	}
	facts, err := extractSource(ctx, f.Rel, f.Language, src, extract)
	if err != nil {
		base.ParseError = err.Error()
		return base
	}
	facts.Path, facts.Language, facts.Hash, facts.Size = f.Rel, f.Language, f.Hash, f.Size
	return facts
}

func anyGo(files []File) bool {
	for _, f := range files {
		if f.Language == "go" {
			return true
		}
	}
	return false
}

func anyGoPath(paths []string) bool {
	for _, p := range paths {
		if strings.HasSuffix(p, ".go") {
			return true
		}
	}
	return false
}

func contains(files []File, rel string) bool {
	for _, f := range files {
		if f.Rel == rel {
			return true
		}
	}
	return false
}

// ErrNotIndexed is returned by Freshness when the store holds no index of root.
var ErrNotIndexed = errors.New("not indexed")

// Freshness says how far the index is from the tree: the commit it was built at,
// the current HEAD, and the files whose content differs.
type Freshness struct {
	Status        string   `json:"status"` // fresh or stale
	IndexedCommit string   `json:"indexed_commit,omitempty"`
	Head          string   `json:"head,omitempty"`
	IndexedAt     string   `json:"indexed_at,omitempty"`
	Dirty         []string `json:"dirty,omitempty"`
}

// CheckFreshness rescans root (hashing is cheap next to extraction) and compares it
// with the manifest.
func CheckFreshness(ctx context.Context, root string, st *store.Store, limits Limits) (Freshness, error) {
	var f Freshness
	commit, ok, err := st.Meta(ctx, store.MetaIndexedCommit)
	if err != nil {
		return f, err
	}
	at, _, err := st.Meta(ctx, store.MetaIndexedAt)
	if err != nil {
		return f, err
	}
	if !ok && at == "" {
		return f, fmt.Errorf("%s: %w", root, ErrNotIndexed)
	}
	f.IndexedCommit, f.IndexedAt, f.Head = commit, at, gitHead(ctx, root)
	scan, err := ScanTreeStamped(ctx, root, limits, stampPath(st))
	if err != nil {
		return f, err
	}
	manifest, err := st.Manifest(ctx)
	if err != nil {
		return f, err
	}
	c := Diff(manifest, scan.Files)
	for _, x := range append(c.Added, c.Changed...) {
		f.Dirty = append(f.Dirty, x.Rel)
	}
	f.Dirty = append(f.Dirty, c.Removed...)
	for _, r := range c.Renamed {
		f.Dirty = append(f.Dirty, r.From+" -> "+r.To.Rel)
	}
	f.Status = "fresh"
	if len(f.Dirty) > 0 || f.Head != f.IndexedCommit {
		f.Status = "stale"
	}
	return f, nil
}
