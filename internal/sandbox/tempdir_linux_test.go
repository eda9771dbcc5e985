package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/proctrack"
)

// TestOrphanedTempDirsAreRemoved: an agent killed by SIGKILL cannot remove its
// private temporary directory; the next one to make its own removes it, and only
// the directories whose owner is really gone.
func TestOrphanedTempDirsAreRemoved(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	dead := exec.Command("/bin/true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	me := os.Getpid()
	myStart, err := proctrack.StartTime(me)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Join(p, "left"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := mk(fmt.Sprintf("%s%d-%d-1", tempPrefix, dead.Process.Pid, myStart))
	reused := mk(fmt.Sprintf("%s%d-%d-2", tempPrefix, me, myStart+1)) // this PID, another start: its owner died
	live := mk(fmt.Sprintf("%s%d-%d-3", tempPrefix, me, myStart))
	legacy := mk(tempPrefix + "123456")
	other := mk("unrelated-42-42-42")

	s := New(Config{Mode: WorkspaceWrite, WorkDir: t.TempDir()})
	defer s.Close()
	mine, err := s.TempDir()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(mine), fmt.Sprintf("%s%d-%d-", tempPrefix, me, myStart)) {
		t.Errorf("the temporary directory %s does not name its owner", mine)
	}
	for _, p := range []string{gone, reused} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s, whose owner is gone, was not removed", p)
		}
	}
	for _, p := range []string{live, legacy, other, mine} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(dir)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if slices.Contains(names, filepath.Base(mine)) {
		t.Errorf("Close left %s", mine)
	}
}

func TestParseTempName(t *testing.T) {
	for name, ok := range map[string]bool{
		tempPrefix + "12-345-678": true,
		tempPrefix + "12-345":     false,
		tempPrefix + "x-345-678":  false,
		tempPrefix + "12-0-678":   false,
		tempPrefix + "123456789":  false,
		"albert-code-other-1-2-3": false,
	} {
		if _, _, got := parseTempName(name); got != ok {
			t.Errorf("parseTempName(%q) ok = %v, want %v", name, got, ok)
		}
	}
}
