package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCheckAfterClone times the check after a command that cloned a
// 2,000-file repository into the workspace: inotify's events, the walk of the new
// folders to watch them, and the vetting of the clone's .git (kept).
//
//	go test -run '^$' -bench 'CheckAfterClone|NestedGitRisk' -benchtime 50x ./internal/sandbox
func BenchmarkCheckAfterClone(b *testing.B) {
	clone := benchClone(b)
	ws := b.TempDir()
	var nc nestedControl
	defer nc.close()
	nc.roots(ws)
	for b.Loop() {
		b.StopTimer()
		start := time.Now().Add(-time.Second)
		if out, err := exec.Command("cp", "-a", clone, filepath.Join(ws, "clone")).CombinedOutput(); err != nil {
			b.Fatal(err, string(out))
		}
		b.StartTimer()
		if removed := nc.removeCreated(ws, start); len(removed) != 0 {
			b.Fatalf("the clone's .git was removed: %v", removed)
		}
		b.StopTimer()
		os.RemoveAll(filepath.Join(ws, "clone"))
		nc.removeCreated(ws, start)
		b.StartTimer()
	}
}

// BenchmarkNestedGitRisk times the vetting of a fresh clone's .git alone.
func BenchmarkNestedGitRisk(b *testing.B) {
	clone := benchClone(b)
	for b.Loop() {
		if why := nestedGitRisk(filepath.Dir(clone), filepath.Join(clone, ".git")); why != "" {
			b.Fatal(why)
		}
	}
}

// benchClone clones a 2,000-file repository (50 folders) and returns its path.
func benchClone(b *testing.B) string {
	src := b.TempDir()
	for i := range 2000 {
		p := filepath.Join(src, fmt.Sprintf("d%02d", i%50), fmt.Sprintf("f%05d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("file %d\n", i)), 0o644)
	}
	clone := filepath.Join(b.TempDir(), "clone")
	script := "git init -q && git add . && git -c user.name=b -c user.email=b@b commit -qm f && git clone -q file://" + src + " " + clone
	if out, err := exec.Command("bash", "-c", "cd "+src+" && GIT_CONFIG_GLOBAL=/dev/null "+script).CombinedOutput(); err != nil {
		b.Fatal(err, string(out))
	}
	return clone
}
