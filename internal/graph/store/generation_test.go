package store

import (
	"context"
	"path/filepath"
	"testing"
)

func TestGenerationMovesWithEveryChangeSeenByAnotherProcess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	gen := func(st *Store) int64 {
		t.Helper()
		g, err := st.Generation(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	if g := gen(s); g != 0 {
		t.Fatalf("a new index is generation %d, want 0", g)
	}
	replace(t, s, twoFiles())
	g1 := gen(s)
	if g1 == 0 {
		t.Fatal("replacing files left the generation at 0")
	}
	replace(t, s, nil)
	if g := gen(s); g != g1 {
		t.Fatalf("an empty replace moved the generation from %d to %d: caches would be dropped for nothing", g1, g)
	}
	// Another connection (another process) sees the writer's changes counted.
	other, err := OpenReadOnly(filepath.Clean(s.Path()))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	replace(t, s, nil, "a.go")
	if g := gen(other); g <= g1 {
		t.Fatalf("after a removal a reader sees generation %d, want more than %d", g, g1)
	}
}

func TestLentHandleCloseLeavesTheStoreOpen(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	lent := s.Lend()
	if err := lent.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lent.Meta(context.Background(), MetaSchemaVersion); err != nil {
		t.Fatalf("after closing a lent handle, reading through it fails: %v", err)
	}
	if _, _, err := s.Meta(context.Background(), MetaSchemaVersion); err != nil {
		t.Fatalf("after closing a lent handle, the store fails: %v", err)
	}
}

func TestMemoComputesOncePerGeneration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	calls := 0
	ask := func(st *Store) any {
		t.Helper()
		v, err := st.Memo(ctx, "k", func() (any, error) { calls++; return calls, nil })
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if ask(s) != 1 || ask(s.Lend()) != 1 || calls != 1 {
		t.Fatalf("two asks of one generation computed %d times, want 1", calls)
	}
	replace(t, s, twoFiles())
	if v := ask(s); v != 2 || calls != 2 {
		t.Fatalf("after a change the memo answered %v (%d computations), want a new value", v, calls)
	}
}
