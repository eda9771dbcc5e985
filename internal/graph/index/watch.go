package index

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settleTimeout bounds the wait for the watcher to hear its own barrier. The
// round trip takes tens of microseconds; past a second something is wrong, and
// the caller falls back to a full rescan rather than trust the watcher.
// Judgement.
const settleTimeout = time.Second

// watchBuffer is how many events fsnotify may hold for our reader. Judgement:
// the reader only records a directory per event, so a small buffer absorbs a
// burst (a checkout); the kernel queue behind it reports its own overflow.
const watchBuffer = 1024

// watcher records which directories of the tree changed since the last take, from
// file-system notifications (inotify on Linux): one watch per directory the walk
// keeps. Anything it cannot describe exactly (a directory created, removed or
// renamed, an ignore file changed, the kernel queue overflowing, an error)
// marks the whole tree, which the caller rescans; if watching stops working
// (the watch limit reached), failed says why and every take marks the whole tree.
type watcher struct {
	root    string
	own     string // the index's folder: its writes are not the tree's changes
	fs      *fsnotify.Watcher
	barrier string // a file outside the tree touched by settle
	addDir  func(path string) error
	done    chan struct{}
	wg      sync.WaitGroup

	mu       sync.Mutex
	dirs     map[string]bool // rel → watched and kept by the last full scan
	dirty    map[string]bool // rel directories whose files changed
	all      bool
	failed   error
	barriers uint64        // barrier events heard
	heard    chan struct{} // closed and replaced on each barrier event
}

// newWatcher starts watching; the directories come with setDirs (from a full
// scan). barrierDir is a folder outside the tree that the watcher may write in.
func newWatcher(root, own string) (*watcher, error) {
	barrierDir := filepath.Join(own, "watch")
	if err := os.MkdirAll(barrierDir, 0o755); err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	barrier := filepath.Join(barrierDir, "barrier")
	if err := os.WriteFile(barrier, nil, 0o644); err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	fw, err := fsnotify.NewBufferedWatcher(watchBuffer)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	if err := fw.Add(barrierDir); err != nil {
		fw.Close()
		return nil, fmt.Errorf("watch %s: %w", barrierDir, err)
	}
	w := &watcher{root: root, own: own, fs: fw, barrier: barrier, done: make(chan struct{}),
		dirs: map[string]bool{}, dirty: map[string]bool{}, heard: make(chan struct{})}
	w.addDir = fw.Add
	w.wg.Go(w.loop)
	return w, nil
}

// watchDir adds a watch on one directory the scan kept (rel "." is the root).
// An error (the watch limit, too many open files) ends watching: failed says why.
func (w *watcher) watchDir(abs, rel string, next map[string]bool) {
	if w.broken() || within(abs, w.own) {
		return
	}
	if err := w.addDir(abs); err != nil {
		w.fail(fmt.Errorf("watch %s: %w (the tree is rescanned on every question instead; on Linux, raise fs.inotify.max_user_watches)", abs, err))
		return
	}
	next[rel] = true
	// At once, not after the scan: an edit made after the scan read this
	// directory's files must count.
	w.mu.Lock()
	w.dirs[rel] = true
	w.mu.Unlock()
}

// setDirs replaces the set of watched directories after a full scan.
func (w *watcher) setDirs(dirs map[string]bool) {
	w.mu.Lock()
	w.dirs = dirs
	w.mu.Unlock()
}

func (w *watcher) broken() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.failed != nil
}

func (w *watcher) failure() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.failed
}

func (w *watcher) fail(err error) {
	w.mu.Lock()
	if w.failed == nil {
		w.failed = err
	}
	w.all = true
	w.mu.Unlock()
}

func (w *watcher) loop() {
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			w.event(ev)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			w.lost(err)
		}
	}
}

// lost records an error from the notification stream (fsnotify.ErrEventOverflow
// when the kernel queue overflowed, or another): events may be missing, so the
// whole tree is rescanned next time.
func (w *watcher) lost(error) {
	w.mu.Lock()
	w.all = true
	w.mu.Unlock()
}

// ignoreFileNames change what the walk keeps below their directory.
var ignoreFileNames = map[string]bool{".gitignore": true, ".ignore": true, ".rgignore": true}

func (w *watcher) event(ev fsnotify.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if ev.Name == w.barrier {
		w.barriers++
		close(w.heard)
		w.heard = make(chan struct{})
		return
	}
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil {
		w.all = true
		return
	}
	rel = filepath.ToSlash(rel)
	dir := path.Dir(rel)
	if !w.dirs[dir] {
		return // a directory the scan did not keep (ignored since, or not yet seen)
	}
	base := path.Base(rel)
	switch {
	case ev.Op == fsnotify.Chmod:
		// Metadata only: content is unchanged (a touch). A chmod that makes a
		// file unreadable is seen by the next full scan.
	case ignoreFileNames[base]:
		w.all = true
	case w.dirs[rel]:
		w.all = true // a kept directory removed or renamed
	case within(ev.Name, w.own):
		// The index's own writes (the index kept inside the tree).
	case ev.Has(fsnotify.Create) && isDir(ev.Name):
		w.all = true // a new directory: its subtree needs walking
	case LanguageOf(rel) != "" || buildFiles[base]:
		w.dirty[dir] = true
	}
	// Anything else is not indexed and read by no pass (an index written inside
	// the tree, a README): no work.
}

// buildFiles are read by the Go loader or the resolution pass besides the
// indexed sources: an edit to one needs an index run.
var buildFiles = map[string]bool{"go.mod": true, "go.sum": true, "go.work": true, "go.work.sum": true,
	"tsconfig.json": true, "jsconfig.json": true, "package.json": true}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

func isDir(p string) bool {
	info, err := os.Lstat(p)
	return err == nil && info.IsDir()
}

// settle returns once every event queued before the call has been recorded: it
// touches the barrier file and waits to hear it, since one inotify queue
// delivers in order. False when it could not (the caller then rescans).
func (w *watcher) settle() bool {
	w.mu.Lock()
	seen, heard := w.barriers, w.heard
	w.mu.Unlock()
	now := time.Now()
	if err := os.Chtimes(w.barrier, now, now); err != nil {
		return false
	}
	timer := time.NewTimer(settleTimeout)
	defer timer.Stop()
	for {
		select {
		case <-heard:
		case <-timer.C:
			return false
		case <-w.done:
			return false
		}
		w.mu.Lock()
		// A later touch coalesced with ours still comes after every earlier event.
		ok := w.barriers > seen
		heard = w.heard
		w.mu.Unlock()
		if ok {
			return true
		}
	}
}

// take returns and forgets what changed: the directories, or all when only a
// full rescan can tell.
func (w *watcher) take() (dirs []string, all bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	all = w.all || w.failed != nil
	for d := range w.dirty {
		dirs = append(dirs, d)
	}
	w.dirty, w.all = map[string]bool{}, false
	return dirs, all
}

// close stops watching and waits for the reader.
func (w *watcher) close() error {
	close(w.done)
	err := w.fs.Close()
	w.wg.Wait()
	return err
}
