// Package gtts runs the TypeScript ground-truth program's own tests (node --test,
// the same as `npm test`) from `go test ./...`.
package gtts

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// timeout bounds the whole node test run: a few seconds of work, well over a minute
// when the machine's two cores are shared (measured 35 s at load average 19).
const timeout = 5 * time.Minute

func TestGroundTruthProgram(t *testing.T) {
	if _, err := os.Stat("node_modules/typescript/package.json"); err != nil {
		t.Fatalf("bench/graphacc/gt-ts has no node_modules/typescript: run `npm ci` in bench/graphacc/gt-ts (.ci/run does): %v", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed to run the TypeScript ground truth (Node 20 or later): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "--test", "test/").CombinedOutput()
	if err != nil {
		t.Fatalf("node --test test/ in bench/graphacc/gt-ts: %v\n%s", err, out)
	}
	// The golden file the node tests compare with is also what the harness reads.
	if _, err := truth.Read("testdata/tiny.want.json"); err != nil {
		t.Fatalf("the golden ground truth breaks bench/graphacc/FORMAT.md: %v", err)
	}
}
