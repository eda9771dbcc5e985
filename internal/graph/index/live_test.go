package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// defExtractor makes a function node of every "def NAME" line: enough facts to
// see an edit reach the store without a real parser.
func defExtractor(_ context.Context, rel, _ string, src []byte) (graph.FileFacts, error) {
	var f graph.FileFacts
	for i, line := range strings.Split(string(src), "\n") {
		if name, ok := strings.CutPrefix(line, "def "); ok {
			f.Nodes = append(f.Nodes, graph.Node{QName: name, Name: name, Kind: graph.KindFunction, File: rel, Line: i + 1, Language: "python"})
		}
	}
	return f, nil
}

// openLive indexes root once, as `graph index` would, and opens a Live on it.
func openLive(t *testing.T, root string, opts Options) *Live {
	t.Helper()
	db := filepath.Join(t.TempDir(), "graph.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), root, st, opts); err != nil {
		t.Fatal(err)
	}
	st.Close()
	l, err := OpenLive(root, db, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hasNode syncs l and reports whether the index holds qname.
func hasNode(t *testing.T, l *Live, qname string) bool {
	t.Helper()
	st, _, err := l.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = st.Node(context.Background(), qname)
	return err == nil
}

func TestLiveSeesEachEditWithoutWalkingTheTreeAgain(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"a/one.py": "def one\n", "b/two.py": "def two\n", ".gitignore": "build/\n", "build/gen.py": "def gen\n",
	})
	l := openLive(t, root, Options{Extract: defExtractor})
	if !hasNode(t, l, "one") {
		t.Fatal("the first sync lost what the index held")
	}
	if s := l.Stats(); s.FullScans != 1 || s.Runs != 0 || !s.Watching {
		t.Fatalf("first sync of an unchanged tree = %+v, want one full scan, no index run, watching", s)
	}

	write(t, root, "a/one.py", "def one\ndef uno\n") // edit
	if !hasNode(t, l, "uno") {
		t.Fatal("a question right after an edit did not see it")
	}
	write(t, root, "b/three.py", "def three\n") // a new file in a known directory
	if !hasNode(t, l, "three") {
		t.Fatal("a question right after a new file did not see it")
	}
	if err := os.Remove(filepath.Join(root, "b", "two.py")); err != nil {
		t.Fatal(err)
	}
	if hasNode(t, l, "two") {
		t.Fatal("a removed file's definitions are still answered")
	}
	write(t, root, "build/gen.py", "def gen\ndef more\n") // ignored: no work at all
	if hasNode(t, l, "more") {
		t.Fatal("an ignored file was indexed")
	}
	s := l.Stats()
	if s.FullScans != 1 || s.DirScans != 3 || s.Runs != 3 {
		t.Fatalf("stats = %+v, want 1 full scan, 3 directory listings, 3 index runs", s)
	}
	if f := l.Freshness(); f.Status != "fresh" {
		t.Fatalf("freshness after sync = %+v", f)
	}
}

func TestLiveFallsBackToAFullRescanWhenEventsCannotSay(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a/one.py": "def one\n"})
	l := openLive(t, root, Options{Extract: defExtractor})
	hasNode(t, l, "one")

	write(t, root, "c/d/new.py", "def fresh\n") // new directories: their subtree must be walked
	if !hasNode(t, l, "fresh") {
		t.Fatal("a file in a new directory was not indexed")
	}
	if s := l.Stats(); s.FullScans != 2 {
		t.Fatalf("after a new directory: %d full scans, want 2", s.FullScans)
	}
	write(t, root, "c/d/new.py", "def fresh\ndef fresher\n") // the new directory is watched now
	if !hasNode(t, l, "fresher") {
		t.Fatal("an edit in a directory created after the start was not seen")
	}
	if s := l.Stats(); s.FullScans != 2 {
		t.Fatalf("an edit in the new directory cost a full scan: %+v", s)
	}

	l.w.lost(fsnotify.ErrEventOverflow) // the kernel dropped events
	write(t, root, "a/one.py", "def one\ndef after\n")
	if !hasNode(t, l, "after") {
		t.Fatal("an edit after an overflow was not seen")
	}
	if s := l.Stats(); s.FullScans != 3 {
		t.Fatalf("after an overflow: %d full scans, want 3", s.FullScans)
	}
}

func TestLiveWithoutWatchesRescansOnEverySync(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a/one.py": "def one\n"})
	l := openLive(t, root, Options{Extract: defExtractor})
	l.w.addDir = func(string) error { return syscall.ENOSPC } // the inotify watch limit
	hasNode(t, l, "one")
	write(t, root, "a/one.py", "def one\ndef two\n")
	if !hasNode(t, l, "two") {
		t.Fatal("without watches an edit was not seen")
	}
	s := l.Stats()
	if s.Watching || !strings.Contains(s.WatchError, "max_user_watches") || s.FullScans != 2 {
		t.Fatalf("stats = %+v, want not watching, the reason with what to do, a full scan per sync", s)
	}
}

func TestLiveGoEditReachesTheTypedEdges(t *testing.T) {
	t.Parallel()
	root := smallModule(t)
	l := openLive(t, root, Options{Go: golang.DefaultOptions()})
	hasNode(t, l, "example.com/small/lib.Greet")
	write(t, root, "lib/lib.go", "package lib\n\nfunc Wave() {}\n\n// Greet says hello.\nfunc Greet(n string) string { Wave(); return \"hi \" + n }\n")
	st, rep, err := l.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if rep == nil || rep.Extracted == 0 {
		t.Fatalf("the edit was not indexed: %+v", rep)
	}
	callers, err := st.Edges(context.Background(), "example.com/small/lib.Wave", graph.EdgeCalls, store.In)
	if err != nil || len(callers) != 1 || callers[0].From != "example.com/small/lib.Greet" {
		t.Fatalf("callers of the new function = %+v, %v", callers, err)
	}
	if s := l.Stats(); s.FullScans != 1 {
		t.Fatalf("a Go edit cost a full scan: %+v", s)
	}
}

func TestLiveReopensARebuiltIndex(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a/one.py": "def one\n"})
	l := openLive(t, root, Options{Extract: defExtractor})
	hasNode(t, l, "one")
	// Another process rebuilds the index: a new file under the same name.
	if err := store.Remove(l.dbPath); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(l.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if !hasNode(t, l, "one") {
		t.Fatal("after a rebuild by another process the index is empty")
	}
}

func TestLiveIgnoresFilesNoPassReadsButNotGoMod(t *testing.T) {
	t.Parallel()
	root := smallModule(t)
	l := openLive(t, root, Options{Go: golang.DefaultOptions()})
	hasNode(t, l, "example.com/small/lib.Greet")
	write(t, root, "lib/README.txt", "notes\n")
	write(t, root, "lib/graph.db-wal", "an index kept inside the tree\n")
	hasNode(t, l, "example.com/small/lib.Greet")
	if s := l.Stats(); s.DirScans != 0 || s.Runs != 0 {
		t.Fatalf("files no pass reads cost work: %+v", s)
	}
	write(t, root, "go.mod", "module example.com/small\n\ngo 1.26\n\n// edited\n")
	st, rep, err := l.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if rep == nil || rep.GoFullReason != "go.mod changed" {
		t.Fatalf("after go.mod changed the run = %+v, want a Go reload because go.mod changed", rep)
	}
}

// Every question syncs: outside a git repository that must not start git (a
// process costs more than the rest of the sync).
func TestLiveOutsideGitStartsNoProcess(t *testing.T) {
	bin := t.TempDir()
	calls := filepath.Join(bin, "calls")
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho called >> "+calls+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	root := writeTree(t, map[string]string{"a/one.py": "def one\n"})
	l := openLive(t, root, Options{Extract: defExtractor})
	t.Setenv("PATH", bin)
	for range 3 {
		hasNode(t, l, "one")
	}
	if b, err := os.ReadFile(calls); err == nil {
		t.Fatalf("syncs outside a git repository started git: %q", b)
	}
}

func TestLiveStopsWaitingForAWatcherThatHearsNothing(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a/one.py": "def one\n"})
	l := openLive(t, root, Options{Extract: defExtractor})
	hasNode(t, l, "one")
	// A barrier in a folder nobody watches: as on a file system without notifications.
	l.w.barrier = filepath.Join(t.TempDir(), "barrier")
	if err := os.WriteFile(l.w.barrier, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, root, "a/one.py", "def one\ndef two\n")
	if !hasNode(t, l, "two") {
		t.Fatal("an edit was lost when the watcher went deaf")
	}
	start := time.Now()
	write(t, root, "a/one.py", "def one\ndef two\ndef three\n")
	if !hasNode(t, l, "three") {
		t.Fatal("an edit was lost after the watcher was given up")
	}
	if d := time.Since(start); d >= settleTimeout {
		t.Fatalf("a sync after the watcher was given up took %v: it waited for it again", d)
	}
	if s := l.Stats(); s.Watching || !strings.Contains(s.WatchError, "did not hear") {
		t.Fatalf("stats = %+v, want not watching and why", s)
	}
}

func TestLiveRewatchesAnIndexFolderMadeAnew(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a/one.py": "def one\n"})
	l := openLive(t, root, Options{Extract: defExtractor})
	hasNode(t, l, "one")
	// The whole index folder removed (barrier included), then an index built again.
	if err := os.RemoveAll(filepath.Dir(l.dbPath)); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(l.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	hasNode(t, l, "one")
	full := l.Stats().FullScans
	write(t, root, "a/one.py", "def one\ndef two\n")
	if !hasNode(t, l, "two") {
		t.Fatal("an edit after the index folder was made anew was not seen")
	}
	if s := l.Stats(); !s.Watching || s.FullScans != full {
		t.Fatalf("stats = %+v: the new folder is not watched (full scans %d before the edit)", s, full)
	}
}
