package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestLegsRunTiny runs every leg on a tiny setting with the in-process client,
// timing nothing: it checks that the benchmark still drives serve end to end
// (the floor and serve answer, no async run is lost, idle runs are cancelled).
func TestLegsRunTiny(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "albert-code")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/etalab-ia/albert-code/cmd/albert-code").CombinedOutput(); err != nil {
		t.Fatalf("build albert-code: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg := config{
		bin: bin, rounds: 1, n: 20, c: 4, warmup: 2, asyncN: 5, idleNs: []int{0, 3},
		gen: goGen{}, asyncFirst: 10 * time.Millisecond, drainLimit: time.Minute, root: t.TempDir(),
	}
	if err := latencyLeg(ctx, cfg); err != nil {
		t.Errorf("latency: %v", err)
	}
	if err := asyncLeg(ctx, cfg); err != nil {
		t.Errorf("async: %v", err)
	}
	if err := idleLeg(ctx, cfg); err != nil {
		t.Errorf("idle: %v", err)
	}
}
