package query

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/store"
)

func TestFuseByReciprocalRank(t *testing.T) {
	// b: 1/62 + 1/61 beats a: 1/61 alone and c: 1/62 + 1/63; d only in one list, last.
	got := fuse([]string{"a", "b", "c"}, []string{"b", "c", "d"})
	if want := []string{"b", "c", "a", "d"}; !slices.Equal(got, want) {
		t.Fatalf("fuse = %v, want %v", got, want)
	}
	// Equal scores: the better single rank first, then the name.
	if got := fuse([]string{"x", "y"}, []string{"y", "x"}); !slices.Equal(got, []string{"x", "y"}) {
		t.Fatalf("tie = %v", got)
	}
}

type fakeLeg struct {
	ranked []string
	err    error
}

func (f fakeLeg) Rank(context.Context, *store.Store, string, int) ([]string, string, error) {
	return f.ranked, "fake model, 3 of 3 symbols embedded", f.err
}

func TestSearchLegs(t *testing.T) {
	st := indexed(t)
	ctx := context.Background()

	a, err := AskWith(ctx, st, "search", "area", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Legs) != 2 || !a.Legs[0].Ran || a.Legs[1].Ran || !strings.Contains(a.Why, "not configured") {
		t.Fatalf("BM25 alone: legs %+v, why %q", a.Legs, a.Why)
	}

	// The vector leg brings Use (no lexical match for "area") into the answer.
	use := "example.com/q/shapes.Use"
	a, err = AskWith(ctx, st, "search", "area", Options{Vectors: fakeLeg{ranked: []string{use, "example.com/q/shapes.Square.Area"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Legs[1].Ran || a.Legs[1].Hits != 2 || !strings.Contains(a.Why, "K=60") {
		t.Fatalf("hybrid: legs %+v, why %q", a.Legs, a.Why)
	}
	if a.Items[0].QName != "example.com/q/shapes.Square.Area" {
		t.Errorf("first = %s, want Square.Area (ranked by both legs)", a.Items[0].QName)
	}
	if !slices.ContainsFunc(a.Items, func(it Item) bool { return it.QName == use && it.File != "" && it.Line > 0 }) {
		t.Errorf("vector-only hit missing or without location: %+v", a.Items)
	}

	a, err = AskWith(ctx, st, "search", "area", Options{Vectors: fakeLeg{err: errors.New("HTTP 503")}})
	if err != nil || a.Legs[1].Ran || !strings.Contains(a.Legs[1].Note, "failed, BM25 alone answers: HTTP 503") || len(a.Items) == 0 {
		t.Fatalf("failing leg: %+v, %v", a, err)
	}
}
