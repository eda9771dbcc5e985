//go:build unix

package index

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipeIsListedNotRead: a FIFO named like source code would block the
// first read forever; the walk lists it and never opens it.
func TestNamedPipeIsListedNotRead(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"ok.py": "def f():\n    pass\n"})
	if err := syscall.Mkfifo(filepath.Join(root, "hang.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := Run(ctx, root, openStore(t), Options{Extract: defExtractor})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.LeftOut.Files) != 1 || rep.LeftOut.Files[0].Path != "hang.py" || rep.LeftOut.Files[0].Why != WhyNotRegular {
		t.Errorf("left out = %+v, want the pipe, not a regular file", rep.LeftOut)
	}
}
