//go:build linux || darwin

package builtin

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFileToolsDoNotWaitOnAFIFO: a FIFO a command made in the workspace hung read
// (and the agent, which SIGTERM no longer stopped) until a writer came. Every file
// tool now answers at once.
func TestFileToolsDoNotWaitOnAFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"plain.txt": "needle\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{WorkDir: dir, BuiltinGrep: true}
	calls := []struct {
		name string
		run  func() string
		want string
	}{
		{"read", func() string { return run(t, Read(env), ReadParams{Path: "pipe"}).Output }, "not a regular file"},
		{"edit", func() string {
			return run(t, Edit(env), EditParams{Path: "pipe", OldString: "a", NewString: "b"}).Output
		}, "not a regular file"},
		{"grep on the FIFO", func() string { return run(t, Grep(env), GrepParams{Pattern: "needle", Path: "pipe"}).Output }, "not a regular file"},
		{"grep on the folder", func() string { return run(t, Grep(env), GrepParams{Pattern: "needle", Path: "."}).Output }, "plain.txt"},
		{"grep with rg on the FIFO", func() string {
			rgEnv := env
			rgEnv.BuiltinGrep = false
			return run(t, Grep(rgEnv), GrepParams{Pattern: "needle", Path: "pipe"}).Output
		}, "not a regular file"},
	}
	for _, c := range calls {
		done := make(chan string, 1)
		go func() { done <- c.run() }()
		select {
		case out := <-done:
			if !strings.Contains(out, c.want) {
				t.Errorf("%s: %q does not say %q", c.name, out, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s waited on the FIFO", c.name)
		}
	}
}
