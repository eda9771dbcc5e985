package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Live keeps one repository's index open for a long-lived process (the graph MCP
// server, the agent's code_graph tool in a session) and keeps it current without
// walking the tree on every question: file-system notifications say which
// directories changed, only those are listed again, and only what changed is
// indexed. A full rescan is the fallback: at the first sync, after an event the
// watcher cannot describe exactly (a directory created or removed, an ignore
// file edited, a lost event), and on every sync when notifications are not
// available. Its methods are safe for concurrent use; syncs run one at a time.
type Live struct {
	root, dbPath string
	opts         Options

	mu       sync.Mutex
	st       *store.Store
	dbFile   os.FileInfo // identifies the database file st has open
	w        *watcher    // nil when notifications are not available
	watchErr error       // why w is nil
	scan     *Scan       // the tree as last listed, kept up to date from events
	stamps   map[string]stamp
	checked  bool   // the first sync compared the store with the tree
	synced   bool   // the store holds scan, as of head
	head     string // HEAD at the last sync
	at       string // the index's indexed_at at the last sync
	stats    LiveStats
	// pending: the store's Go facts wait for the type checker's pass, which
	// typing runs in the background (live_types.go).
	pending bool
	typing  *typedPass
	closed  bool
	// holdTypes, when set, holds the background pass back until it is closed
	// or receives (tests; Options.HoldTypes).
	holdTypes <-chan struct{}
}

// LiveStats counts what a Live did, for tests and benchmarks.
type LiveStats struct {
	// FullScans are walks of the whole tree; DirScans listings of one changed
	// directory; Runs index runs (each over what the scans found changed);
	// TypedPasses the type checker's passes landed in the background.
	FullScans, DirScans, Runs, TypedPasses int
	// TypesPending: the Go answers are lower bounds until the type checker's
	// pass lands; TypesError is why the last background pass failed.
	TypesPending bool
	TypesError   string `json:",omitempty"`
	// Watching is false when notifications are not available (WatchError says
	// why): every sync then rescans the tree.
	Watching   bool
	WatchError string `json:",omitempty"`
}

// OpenLive opens the existing index at dbPath for reading and writing and starts
// watching root. A missing index is store.ErrNoIndex. When notifications cannot
// be set up the Live still works, rescanning on every sync (Stats says why).
func OpenLive(root, dbPath string, opts Options) (*Live, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if dbPath, err = filepath.Abs(dbPath); err != nil {
		return nil, err
	}
	info, err := os.Stat(dbPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w at %s: run `albert-code graph index` first", store.ErrNoIndex, dbPath)
		}
		return nil, fmt.Errorf("open the index of %s: %w", root, err)
	}
	st, err := store.Open(dbPath)
	if err != nil {
		return nil, err
	}
	opts.Rebuild, opts.Progress = false, nil
	l := &Live{root: root, dbPath: dbPath, opts: opts, st: st, dbFile: info, holdTypes: opts.HoldTypes}
	if l.pending, err = typesPending(context.Background(), st); err != nil {
		st.Close()
		return nil, err
	}
	l.w, l.watchErr = newWatcher(root, filepath.Dir(dbPath))
	return l, nil
}

// Sync brings the index up to date with the tree and returns a handle on the open
// store whose Close does nothing, with the report of the index run when one was
// needed (nil when the index was current). A question asked after an edit is
// answered from an index that holds it: the watcher is first made to hear every
// event queued before the call.
//
// While the type checker's pass is due (a first index), runs read Go for its
// definitions only and the pass runs in the background: questions do not wait
// for it.
func (l *Live) Sync(ctx context.Context) (*store.Store, *Report, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rep, err := l.syncLocked(ctx)
	if err != nil {
		return nil, nil, err
	}
	l.startTypedPass()
	return l.st.Lend(), rep, nil
}

// syncLocked is Sync under l.mu: the report of the run it made, if any.
func (l *Live) syncLocked(ctx context.Context) (*Report, error) {
	if err := l.reopenIfReplaced(); err != nil {
		return nil, err
	}
	dirs, all := l.changes()
	switch {
	case all || l.scan == nil || l.scan.Truncated:
		if err := l.fullScan(ctx); err != nil {
			return nil, err
		}
	case len(dirs) > 0:
		l.synced = false
		full, err := l.rescanDirs(ctx, dirs)
		if err != nil {
			return nil, err
		}
		if full {
			if err := l.fullScan(ctx); err != nil {
				return nil, err
			}
		}
	}
	head := l.currentHead(ctx)
	if l.synced && head == l.head {
		return nil, nil
	}
	if !l.checked {
		l.checked = true
		if l.storeHolds(ctx, head) {
			return nil, nil
		}
	}
	opts := l.opts
	opts.FirstPass = l.pending
	rep, err := runScan(ctx, l.root, l.st, opts, l.scan, time.Now())
	if err != nil {
		return nil, err
	}
	l.stats.Runs++
	l.synced, l.head = true, rep.Commit
	l.at, _, _ = l.st.Meta(ctx, store.MetaIndexedAt)
	return rep, nil
}

// currentHead is gitHead without starting git outside a git repository: every
// question asks, and starting a process costs more than the rest of the sync.
func (l *Live) currentHead(ctx context.Context) string {
	if h, ok := readGitHead(l.root); ok {
		return h
	}
	if _, inRepo := findGitDir(l.root); !inRepo && os.Getenv("GIT_DIR") == "" && os.Getenv("GIT_WORK_TREE") == "" {
		return ""
	}
	return gitHead(ctx, l.root)
}

// changes asks the watcher what changed; all when it cannot say.
func (l *Live) changes() (dirs []string, all bool) {
	if l.w == nil || l.w.broken() {
		return nil, true
	}
	if !l.w.settle() {
		// A watcher that does not hear its own barrier cannot vouch for anything,
		// and waiting for it on every question would cost settleTimeout each.
		l.w.fail(errors.New("the watcher did not hear its own change to " + l.w.barrier + " (are notifications supported on this file system?); the tree is rescanned on every question instead"))
		l.w.take()
		return nil, true
	}
	return l.w.take()
}

// storeHolds reports whether the store already holds the scanned tree at head
// (as CheckFreshness would say fresh), so the first sync of an unchanged tree
// writes nothing.
func (l *Live) storeHolds(ctx context.Context, head string) bool {
	commit, _, err := l.st.Meta(ctx, store.MetaIndexedCommit)
	if err != nil || commit != head {
		return false
	}
	if v, _, err := l.st.Meta(ctx, metaExtractorVersion); err != nil || v != ExtractorVersion {
		return false
	}
	manifest, err := l.st.Manifest(ctx)
	if err != nil || !Diff(manifest, l.scan.Files).Empty() {
		return false
	}
	l.synced, l.head = true, head
	l.at, _, _ = l.st.Meta(ctx, store.MetaIndexedAt)
	return true
}

// reopenIfReplaced reopens the store when its file was replaced (a rebuild by
// analyze_codebase or `graph index --rebuild`): the open one is a deleted file.
// Handles lent before stop working.
func (l *Live) reopenIfReplaced() error {
	info, err := os.Stat(l.dbPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%w at %s: it was removed; run `albert-code graph index`", store.ErrNoIndex, l.dbPath)
		}
		return err
	}
	if os.SameFile(info, l.dbFile) {
		return checkHeader(l.dbPath)
	}
	st, err := store.Open(l.dbPath)
	if err != nil {
		return err
	}
	l.st.Close()
	l.st, l.dbFile, l.synced = st, info, false
	if l.pending, err = typesPending(context.Background(), st); err != nil {
		return err
	}
	// The index's folder may have been made anew, barrier file included: a new
	// watcher, and a full scan to give it its directories.
	if l.w != nil {
		l.w.close()
	}
	l.w, l.watchErr = newWatcher(l.root, filepath.Dir(l.dbPath))
	l.scan = nil
	return nil
}

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// checkHeader catches a database file overwritten in place while it was kept
// open (its open connections would go on answering from their cache): one read
// of 16 bytes, where a quick_check would read every page.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	b := make([]byte, len(sqliteHeader))
	if _, err := f.ReadAt(b, 0); err != nil || string(b) != sqliteHeader {
		return fmt.Errorf("%w: %s is no longer a SQLite database; run `albert-code graph index --rebuild`", store.ErrCorrupt, path)
	}
	return nil
}

// fullScan lists the whole tree, watching every directory it keeps.
func (l *Live) fullScan(ctx context.Context) error {
	l.synced = false
	var onDir func(path, rel string)
	next := map[string]bool{}
	if l.w != nil {
		l.w.watchDir(l.root, ".", next)
		onDir = func(p, rel string) { l.w.watchDir(p, rel, next) }
	}
	sc, stamps, err := scanTreeWith(ctx, l.root, l.opts.Limits, stampPath(l.st), onDir)
	if err != nil {
		return err
	}
	if l.w != nil {
		l.w.setDirs(next)
	}
	l.scan, l.stamps = sc, stamps
	l.stats.FullScans++
	return nil
}

// Freshness says how the index stands against the tree as of the last Sync,
// without walking the tree: the watcher vouches for it.
func (l *Live) Freshness() Freshness {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := Freshness{Status: "fresh", IndexedCommit: l.head, Head: l.head, IndexedAt: l.at}
	if !l.synced {
		f.Status = "stale"
	}
	return f
}

// Stats says what the Live did so far.
func (l *Live) Stats() LiveStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.stats
	s.TypesPending = l.pending
	s.Watching = l.w != nil && !l.w.broken()
	switch {
	case l.watchErr != nil:
		s.WatchError = l.watchErr.Error()
	case l.w != nil && l.w.broken():
		s.WatchError = l.w.failure().Error()
	}
	return s
}

// Close stops watching and closes the store; lent handles stop working.
func (l *Live) Close() error {
	l.mu.Lock()
	l.closed = true
	typing := l.typing
	l.mu.Unlock()
	if typing != nil {
		typing.cancel()
		<-typing.done
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	if l.w != nil {
		errs = append(errs, l.w.close())
	}
	errs = append(errs, l.st.Close())
	return errors.Join(errs...)
}
