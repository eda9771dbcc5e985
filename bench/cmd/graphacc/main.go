// Command graphacc measures the code graph's accuracy against compiler ground
// truth (bench/graphacc/FORMAT.md): for each corpus it indexes the code with the
// engine, samples questions per kind with a fixed seed, asks them through
// `albert-code graph query --json`, and scores precision, recall and F1 per kind.
// With -tokens it also counts the characters an agent reads to get the same
// answers through the MCP server and through a scripted grep-and-read baseline.
//
//	go run ./bench/cmd/graphacc [flags] TRUTH.json...
//	go run ./bench/cmd/graphacc prepare [-dir DIR]
//
// See docs/benchmarks/graph-accuracy.md and docs/benchmarks/graph-tokens.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if len(os.Args) > 1 && os.Args[1] == "prepare" {
		err = prepareMain(ctx, os.Args[2:])
	} else {
		err = measureMain(ctx, os.Args[1:])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "graphacc:", err)
		os.Exit(1)
	}
}

func measureMain(ctx context.Context, args []string) error {
	fl := flag.NewFlagSet("graphacc", flag.ContinueOnError)
	var set Settings
	fl.StringVar(&set.Engine, "engine", "bench/bin/albert-code", "the albert-code binary (go build -o bench/bin/albert-code ./cmd/albert-code)")
	// 60 per kind and 10 % with an empty answer: codegraph-eval §5.4.
	fl.IntVar(&set.N, "n", 60, "questions per kind and corpus")
	fl.Float64Var(&set.ZeroShare, "zero", 0.1, "share of the questions whose ground-truth answer is empty")
	fl.StringVar(&set.Seed, "seed", "graphacc-v1", "sampling seed")
	fl.BoolVar(&set.Tokens, "tokens", false, "also measure characters read: MCP tools against grep-and-read")
	modes := fl.String("modes", "auto", "comma-separated: engine, tree-sitter; auto = both for Go, engine for the rest")
	jsonOut := fl.String("json", "", "also write every question and score to this file")
	examples := fl.Int("examples", 3, "worst questions to show per corpus, mode and kind")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() == 0 {
		return fmt.Errorf("give at least one ground-truth file (see bench/graphacc/FORMAT.md)")
	}
	bin, err := filepath.Abs(set.Engine)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("engine %s: %w (build it: go build -o bench/bin/albert-code ./cmd/albert-code)", set.Engine, err)
	}
	set.Engine = bin
	// A corpus that fails is reported and the others still run: a long run is
	// not thrown away for one bad file.
	var runs []*Run
	var failed []error
	for _, path := range fl.Args() {
		t, err := truth.Read(path)
		if err != nil {
			failed = append(failed, err)
			fmt.Fprintln(os.Stderr, "graphacc:", err)
			continue
		}
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		for _, mode := range modesFor(*modes, t.Language) {
			fmt.Fprintf(os.Stderr, "graphacc: %s (%s), %s mode\n", name, t.Language, mode)
			r, err := measure(ctx, name, t, mode, set)
			if err != nil {
				err = fmt.Errorf("%s, %s mode: %w", name, mode, err)
				failed = append(failed, err)
				fmt.Fprintln(os.Stderr, "graphacc:", err)
				continue
			}
			runs = append(runs, r)
		}
	}
	if err := writeTable(os.Stdout, runs); err != nil {
		return err
	}
	if set.Tokens {
		fmt.Println()
		if err := writeTokenTable(os.Stdout, runs); err != nil {
			return err
		}
	}
	fmt.Println()
	writeExamples(os.Stdout, runs, *examples)
	if *jsonOut != "" {
		data, err := json.MarshalIndent(map[string]any{"settings": set, "runs": runs}, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", *jsonOut, err)
		}
	}
	return errors.Join(failed...)
}

// modesFor expands -modes for one corpus: the tree-sitter fallback is a Go notion.
func modesFor(flagValue, language string) []string {
	if flagValue == "auto" {
		if language == "go" {
			return []string{ModeEngine, ModeTreeSitter}
		}
		return []string{ModeEngine}
	}
	var out []string
	for _, m := range strings.Split(flagValue, ",") {
		if m = strings.TrimSpace(m); m == ModeTreeSitter && language != "go" {
			continue
		} else if m != "" {
			out = append(out, m)
		}
	}
	return out
}
