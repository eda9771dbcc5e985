package index

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// manyPackages is a module of folders × files Go files, each defining one
// function: more files than one batch of a first pass writes.
func manyPackages(folders, files int) map[string]string {
	tree := map[string]string{"go.mod": "module example.com/many\n\ngo 1.22\n"}
	for d := range folders {
		for f := range files {
			tree[fmt.Sprintf("p%02d/f%02d.go", d, f)] = fmt.Sprintf("package p%02d\n\nfunc F%02d() {}\n", d, f)
		}
	}
	return tree
}

// A first pass over more files than a batch writes every file, once, with
// each package's node, over several transactions.
func TestFirstPassWritesEveryBatch(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const folders, files = 12, 25
	root := writeTree(t, manyPackages(folders, files))
	st := openStore(t)
	gen, err := st.Generation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := FirstPass(ctx, root, st, passOptions())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Extracted != folders*files || !rep.TypesPending {
		t.Fatalf("first pass extracted %d files (pending %v); want %d, pending", rep.Extracted, rep.TypesPending, folders*files)
	}
	after, err := st.Generation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after-gen < 2 {
		t.Errorf("the store's generation moved %d times; want one per batch, at least 2 for %d files", after-gen, folders*files)
	}
	nodes := goNodes(t, st)
	kinds := map[string]int{}
	for _, n := range nodes {
		kinds[n.Kind]++
	}
	if kinds["file"] != folders*files || kinds["function"] != folders*files || kinds["package"] != folders {
		t.Errorf("nodes by kind = %v; want %d files, %d functions, %d packages", kinds, folders*files, folders*files, folders)
	}
	checkGraphIndexes(t, st)
}

// checkGraphIndexes fails unless the store holds the graph tables' ten
// secondary indexes (a first pass into a new store builds them last).
func checkGraphIndexes(t *testing.T, st *store.Store) {
	t.Helper()
	_, rows, _, err := st.Query(context.Background(), `SELECT count(*) FROM sqlite_master WHERE type = 'index'
		AND tbl_name IN ('node_rows', 'edge_rows', 'unresolved_rows', 'site_rows')`, 10, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := fmt.Sprint(rows[0][0]); n != "10" {
		t.Errorf("the graph tables have %s secondary indexes after the first pass; want 10", n)
	}
}

// A first pass cancelled midway returns the cancellation, without hanging on
// the folders still being read.
func TestFirstPassStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root := writeTree(t, manyPackages(12, 25))
	st := openStore(t)
	stop, cancelRun := context.WithCancel(ctx)
	defer cancelRun()
	opts := passOptions()
	opts.Progress = func(done, total int) {
		if done == total/2 {
			cancelRun()
		}
	}
	if _, err := FirstPass(stop, root, st, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("first pass cancelled midway: %v; want context.Canceled", err)
	}
	checkGraphIndexes(t, st)
}
