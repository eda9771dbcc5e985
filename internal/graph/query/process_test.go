package query

import (
	"context"
	"strings"
	"testing"
)

func TestProcessFollowsCallsAndInterfaceDispatch(t *testing.T) {
	t.Parallel()
	st := indexedChain(t)
	ctx := context.Background()
	a, err := AskWith(ctx, st, "process", chainPkg+"Main", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Main → Start (1) → Runner.Run and, through it, Job.Run (2) → D (3).
	if got := hops(a.Items); got != "1:Start,2:Runner.Run,2:Job.Run,3:D" {
		t.Fatalf("process = %s", got)
	}
	if a.Certainty != Exact || a.Items[2].Why == "" {
		t.Fatalf("answer: %s (%s), Job.Run why %q", a.Certainty, a.Why, a.Items[2].Why)
	}
	a, err = AskWith(ctx, st, "process", chainPkg+"F", Options{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := hops(a.Items); got != "1:A,2:B" || a.Certainty != LowerBound || !strings.Contains(a.Why, "stopped at depth 2") {
		t.Fatalf("F at depth 2: %s, %s (%s)", got, a.Certainty, a.Why)
	}
}
