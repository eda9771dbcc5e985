// Command tuibench measures the terminal UI: the time from starting albert-code
// in a pseudo-terminal to its first painted screen and to ready input (the
// session open, the prompt accepting keys); the cost of each frame while an
// answer streams at 100 tokens a second (View time and the write to the
// terminal); and the memory and first-screen time of a 10,000-message session.
// Everything runs against the in-process fake model server. See
// docs/benchmarks/tui.md.
//
//	go build -o bench/bin/albert-code ./cmd/albert-code
//	go run ./bench/cmd/tuibench [-n 20] [-albert-code bench/bin/albert-code]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "tuibench:", err)
		os.Exit(1)
	}
}

func run() error {
	n := flag.Int("n", 20, "measured start-ups")
	bin := flag.String("albert-code", "bench/bin/albert-code", "albert-code binary")
	tokens := flag.Int("tokens", 1500, "tokens in the streamed answer")
	rate := flag.Int("rate", 100, "tokens per second while streaming")
	messages := flag.Int("messages", 10000, "messages in the long session")
	flag.Parse()
	// The start-ups run in a scratch folder, so a relative path would not resolve.
	abs, err := filepath.Abs(*bin)
	if err != nil {
		return fmt.Errorf("-albert-code %s: %w", *bin, err)
	}
	*bin = abs

	fmt.Printf("tuibench: %d start-ups, %d tokens at %d tokens/s, a %d-message session\n\n", *n, *tokens, *rate, *messages)
	if err := benchStartup(*bin, *n); err != nil {
		return fmt.Errorf("start-up: %w", err)
	}
	if err := benchStream(*tokens, *rate); err != nil {
		return fmt.Errorf("streaming: %w", err)
	}
	if err := benchLongSession(*messages); err != nil {
		return fmt.Errorf("long session: %w", err)
	}
	return nil
}

// line prints a metric's median, 95th percentile and maximum in milliseconds.
func line(name string, samples []time.Duration) {
	if len(samples) == 0 {
		fmt.Printf("%-34s no samples\n", name)
		return
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	p95 := s[min(len(s)-1, len(s)*95/100)]
	fmt.Printf("%-34s median %8.3f ms   p95 %8.3f ms   max %8.3f ms   (n=%d)\n",
		name, ms(s[len(s)/2]), ms(p95), ms(s[len(s)-1]), len(s))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
