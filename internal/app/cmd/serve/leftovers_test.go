package serve

import (
	"bytes"
	"context"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/proctrack"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

// TestKillLeftoversKillsOurGroupsOnly: of two groups a crashed server recorded, the
// real one is killed, and the one whose record names another start time (a PID now
// used by someone else) is spared; both records are then forgotten.
func TestKillLeftoversKillsOurGroupsOnly(t *testing.T) {
	t.Parallel()
	sleeper := func() *exec.Cmd {
		cmd := exec.Command("sleep", "30")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd
	}
	ours, other := sleeper(), sleeper()
	path := filepath.Join(t.TempDir(), "runs.db")
	store, err := runstore.OpenSQLite(path, runstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	_ = store.Create(ctx, runstore.Run{ID: "r", Status: runstore.Running})
	recorded := proctrack.Started(ctx, ours.Process.Pid)
	otherStart, err := proctrack.StartTime(other.Process.Pid)
	if err != nil || recorded.IsZero() {
		t.Fatalf("groups: %+v, %v", recorded, err)
	}
	forged := proctrack.Group{PGID: other.Process.Pid, Start: otherStart + 1}
	for _, g := range []proctrack.Group{recorded, forged} {
		if err := store.AddGroup(ctx, "r", g); err != nil {
			t.Fatal(err)
		}
	}
	store.Close()

	store, err = runstore.OpenSQLite(path, runstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var log bytes.Buffer
	killLeftovers(store, slog.New(slog.NewTextHandler(&log, nil)))
	done := make(chan error, 1)
	go func() { done <- ours.Wait() }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "killed") {
			t.Errorf("the recorded sleep ended with %v, want killed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the recorded sleep still runs")
	}
	if err := other.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the process whose PID a forged record named was hit: %v", err)
	}
	if !strings.Contains(log.String(), "killed processes left running by an interrupted run") ||
		strings.Count(log.String(), "level=") != 1 {
		t.Errorf("log, want one line for the one kill:\n%s", log.String())
	}
	if groups, err := store.Groups(context.Background(), "r"); err != nil || len(groups) != 0 {
		t.Errorf("records after the kill: %v, %v; want none", groups, err)
	}
}
