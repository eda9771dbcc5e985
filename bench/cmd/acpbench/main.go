// Command acpbench measures how fast albert-acp answers an editor: the time from
// sending `initialize` to the first `session/update` (the session's available
// commands, right after session/new), and to the first agent_message_chunk of a
// prompt, against the in-process fake model server. It speaks JSON-RPC itself, so
// no client library's start-up is counted. See docs/benchmarks/acp.md.
//
//	go build -o bench/bin/albert-acp ./cmd/albert-acp
//	go run ./bench/cmd/acpbench [-n 20] [-albert-acp bench/bin/albert-acp]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "acpbench:", err)
		os.Exit(1)
	}
}

func run() error {
	n := flag.Int("n", 20, "measured runs")
	warmup := flag.Int("warmup", 2, "unmeasured runs first, to warm the page cache")
	bin := flag.String("albert-acp", "bench/bin/albert-acp", "albert-acp binary")
	// Judgement: a run takes well under a second; thirty seconds only catches a hang.
	timeout := flag.Duration("timeout", 30*time.Second, "limit for one run")
	flag.Parse()

	var initialized, firstUpdate, firstChunk []float64
	for i := 0; i < *warmup+*n; i++ {
		m, err := measureOnce(*bin, *timeout)
		if err != nil {
			return fmt.Errorf("run %d: %w", i+1, err)
		}
		if i >= *warmup {
			initialized = append(initialized, ms(m.initialized))
			firstUpdate = append(firstUpdate, ms(m.firstUpdate))
			firstChunk = append(firstChunk, ms(m.firstChunk))
		}
	}
	report(os.Stdout, *n, initialized, firstUpdate, firstChunk)
	return nil
}

// measureOnce starts a fresh fake model and a fresh albert-acp, and times one
// editor conversation's start.
func measureOnce(bin string, timeout time.Duration) (measurement, error) {
	srv, err := fakemodel.Start(fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"Hello", " from the fake model"}}}})
	if err != nil {
		return measurement{}, err
	}
	defer srv.Close()
	dir, err := os.MkdirTemp("", "acpbench-")
	if err != nil {
		return measurement{}, err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return converse(ctx, bin, dir, srv.URL())
}

func report(w io.Writer, n int, initialized, firstUpdate, firstChunk []float64) {
	fmt.Fprintf(w, "| measure (%d runs) | median (ms) | p90 (ms) |\n|---|---|---|\n", n)
	fmt.Fprintf(w, "| initialize → its response | %.1f | %.1f |\n", quantile(initialized, 0.5), quantile(initialized, 0.9))
	fmt.Fprintf(w, "| initialize → first session/update | %.1f | %.1f |\n", quantile(firstUpdate, 0.5), quantile(firstUpdate, 0.9))
	fmt.Fprintf(w, "| initialize → first agent_message_chunk of a prompt | %.1f | %.1f |\n", quantile(firstChunk, 0.5), quantile(firstChunk, 0.9))
}

// quantile returns the nearest-rank q-quantile of xs (0 < q <= 1).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(rank, len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
