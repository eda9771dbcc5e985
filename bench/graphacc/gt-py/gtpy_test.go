// Package gtpy runs the Python ground-truth program's own tests (node --test,
// the same as `npm test`) from `go test ./...`.
package gtpy

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// timeout bounds the whole node test run: pyright answers the tiny corpus in a few
// seconds, in about a minute when the machine's two cores are shared (measured 37 s
// at load average 16).
const timeout = 5 * time.Minute

func TestGroundTruthProgram(t *testing.T) {
	if _, err := os.Stat("node_modules/pyright/package.json"); err != nil {
		t.Fatalf("bench/graphacc/gt-py has no node_modules/pyright: run `npm ci` in bench/graphacc/gt-py (.ci/run does): %v", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed to run the Python ground truth (Node 20 or later; python3 3.8 or later too): %v", err)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("python3 (3.8 or later) is needed: lib/sites.py reads the corpus with its ast module: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "--test", "test/").CombinedOutput()
	if err != nil {
		t.Fatalf("node --test test/ in bench/graphacc/gt-py: %v\n%s", err, out)
	}
	// The golden file the node tests compare with is also what the harness reads.
	if _, err := truth.Read("testdata/tiny.want.json"); err != nil {
		t.Fatalf("the golden ground truth breaks bench/graphacc/FORMAT.md: %v", err)
	}
}
