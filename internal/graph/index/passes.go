package index

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// A first index of a large Go repository answers in two passes: a first pass
// reads Go for its definitions (firstgo.go) and the other files with
// tree-sitter and writes what it found, so that questions get answers within
// seconds (lower bounds but for definitions and search), then the go command
// loads and type-checks the module; the typed pass replaces the Go facts with
// the type checker's and resolves the other files across files.

// typedLoad is one golang.Extract of the module, made apart from the run that
// writes it.
type typedLoad struct {
	res *golang.Result
	err error
	// hashes are the Go files' content hashes of the scan the load started
	// from: the load is written only over the same Go files.
	hashes map[string]string
}

// loadTyped loads and type-checks the module at root.
func loadTyped(ctx context.Context, root string, opts golang.Options, hashes map[string]string) *typedLoad {
	res, err := golang.Extract(ctx, root, opts)
	return &typedLoad{res: res, err: err, hashes: hashes}
}

// goHashes are the content hashes of the Go files of scan, by path.
func goHashes(scan *Scan) map[string]string {
	out := map[string]string{}
	for _, f := range scan.Files {
		if f.Language == golang.Language {
			out[f.Rel] = f.Hash
		}
	}
	return out
}

// fits reports whether the load was made from the Go files scan holds.
func (t *typedLoad) fits(scan *Scan) bool {
	return t != nil && maps.Equal(t.hashes, goHashes(scan))
}

// typesPending reports whether the store's Go facts wait for the type checker.
func typesPending(ctx context.Context, st *store.Store) (bool, error) {
	v, _, err := st.Meta(ctx, golang.MetaTypesPending)
	return v != "", err
}

// settlePending records, after a run's facts are written, whether the type
// checker's pass is still due: a first pass that read Go sets it; any other run
// clears it (its Go leg loaded the module, or said why it could not).
func settlePending(ctx context.Context, st *store.Store, opts Options, pending, wroteGo bool, rep *Report) error {
	switch {
	case opts.FirstPass && (pending || wroteGo):
		rep.TypesPending = true
		if pending {
			return nil
		}
		return st.SetMeta(ctx, golang.MetaTypesPending, golang.TypesPending)
	case !opts.FirstPass && pending:
		return st.SetMeta(ctx, golang.MetaTypesPending, "")
	}
	return nil
}

// RunInPasses is Run, in two passes when the store holds no index yet (or
// opts.Rebuild) and the tree has Go: first (when not nil) hears the first
// pass's report as soon as its facts are written, then the module is loaded and
// type-checked; the report returned is the typed pass's. Otherwise it is Run.
//
// The passes run one after the other: on x/tools (2 busy cores) loading the
// module alongside the first pass made the first answers 2.2× slower (22.6 s
// against 10.5 s) and the peak memory the sum of both, for no gain in total.
func RunInPasses(ctx context.Context, root string, st *store.Store, opts Options, first func(*Report)) (*Report, error) {
	version, _, err := st.Meta(ctx, metaExtractorVersion)
	if err != nil {
		return nil, err
	}
	if version != "" && !opts.Rebuild {
		return Run(ctx, root, st, opts)
	}
	rep, err := FirstPass(ctx, root, st, opts)
	if err != nil {
		return nil, err
	}
	if !rep.TypesPending {
		return rep, nil // no Go: the first pass was the whole index
	}
	if first != nil {
		first(rep)
	}
	// The tree may have moved during the first pass: scan it again (the
	// stamps make it cheap).
	opts.Rebuild = false
	typed, err := Run(ctx, root, st, opts)
	if err != nil {
		return nil, err
	}
	return mergePasses(rep, typed), nil
}

// RunFirst is RunInPasses for a long-lived process that lands the type
// checker's pass itself, in the background (a Live): it does not wait for
// that pass. A store with no index yet (or opts.Rebuild) gets a FirstPass;
// one whose typed pass is still due is brought up to date as a first pass
// would (Go's definitions only; the report says TypesPending); any other is
// Run.
func RunFirst(ctx context.Context, root string, st *store.Store, opts Options) (*Report, error) {
	version, _, err := st.Meta(ctx, metaExtractorVersion)
	if err != nil {
		return nil, err
	}
	if version == "" || opts.Rebuild {
		return FirstPass(ctx, root, st, opts)
	}
	pending, err := typesPending(ctx, st)
	if err != nil {
		return nil, err
	}
	opts.FirstPass = pending
	return Run(ctx, root, st, opts)
}

// FirstPass indexes root anew into st, trusting nothing a previous index
// recorded, and answers first: when the tree has Go, Go is read for its
// definitions only and the report says TypesPending (the type checker's pass
// is due: Run, or a Live, lands it); without Go it is the whole index.
func FirstPass(ctx context.Context, root string, st *store.Store, opts Options) (*Report, error) {
	start := time.Now()
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	stamps := stampPath(st)
	os.Remove(stamps) // a first index trusts nothing it did not read
	scan, err := ScanTreeStamped(ctx, root, opts.Limits, stamps)
	if err != nil {
		return nil, err
	}
	opts.Rebuild = true
	opts.FirstPass = anyGo(scan.Files)
	return runScan(ctx, root, st, opts, scan, start)
}

// mergePasses makes the typed pass's report say what the whole index build did:
// the first pass extracted every file (the typed pass only the Go it
// type-checked again), and its files with parse errors stand unless the type
// checker read them again.
func mergePasses(first, typed *Report) *Report {
	typed.Extracted, typed.Unchanged = first.Extracted, first.Unchanged
	typed.Removed, typed.Renamed = first.Removed, first.Renamed
	typed.Duration += first.Duration
	typed.Partial = keepFirst(first.Partial, typed.Partial, typed.GoTypes)
	typed.Quarantined = keepFirst(first.Quarantined, typed.Quarantined, typed.GoTypes)
	return typed
}

// keepFirst is the typed pass's list with the first pass's entries it did not
// redo: all of them when the module did not load, else those not in Go.
func keepFirst(first, typed []Skip, goTyped bool) []Skip {
	out := typed
	for _, s := range first {
		if !goTyped || !strings.HasSuffix(s.Rel, ".go") {
			out = append(out, s)
		}
	}
	return out
}
