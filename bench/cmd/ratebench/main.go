// Command ratebench measures the rate-limit layer: three `albert-code -p` processes
// started together against a fake Albert that enforces a requests-per-minute and a
// tokens-per-minute limit, each making -calls model calls (the fake has the agent
// call the read tool calls-1 times, then answer). It runs once with the layer on
// and once with it off (ALBERT_CODE_RATE_LIMITS=false), and reports the 429s the
// fake sent and the wall time against the minimum the limits allow.
//
//	go build -o bench/bin/albert-code ./cmd/albert-code
//	go run ./bench/cmd/ratebench [-rpm 30] [-tpm 250000] [-calls 40] [-procs 3] [-modes on,off]
//
// The per-call overhead of the layer is a Go benchmark:
//
//	go test -run '^$' -bench Acquire ./internal/llm/ratelimit
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "ratebench:", err)
		os.Exit(1)
	}
}

func run() error {
	bin := flag.String("albert-code", "bench/bin/albert-code", "albert-code binary")
	rpm := flag.Int("rpm", 30, "requests per minute the fake enforces")
	tpm := flag.Int("tpm", 250000, "input tokens per minute the fake enforces")
	calls := flag.Int("calls", 40, "model calls per process")
	procs := flag.Int("procs", 3, "processes started together")
	modes := flag.String("modes", "on,off", "comma-separated: on (layer on), off (ALBERT_CODE_RATE_LIMITS=false)")
	timeout := flag.Duration("timeout", 15*time.Minute, "limit for one mode's run")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := os.Stat(*bin); err != nil {
		return fmt.Errorf("%s: %w (build it: go build -o %s ./cmd/albert-code)", *bin, err, *bin)
	}
	fmt.Printf("ratebench: %d processes × %d calls, fake Albert at %d rpm and %d input tokens/min\n\n", *procs, *calls, *rpm, *tpm)
	for _, mode := range strings.Split(*modes, ",") {
		if mode != "on" && mode != "off" {
			return fmt.Errorf("unknown mode %q: want on or off", mode)
		}
		r, err := runMode(ctx, setup{bin: *bin, rpm: *rpm, tpm: *tpm, calls: *calls, procs: *procs, layerOn: mode == "on", timeout: *timeout})
		if err != nil {
			return fmt.Errorf("mode %s: %w", mode, err)
		}
		r.print(os.Stdout)
	}
	return nil
}
