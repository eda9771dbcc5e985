// Command gt-go writes the compiler's ground truth for a Go module in the format of
// bench/graphacc/FORMAT.md: definitions, calls, unresolvable call sites,
// references and implementations, as go/packages and go/types see them with
// tests included. It imports nothing from the engine it is the yardstick for.
//
//	go run ./bench/graphacc/gt-go [-o truth.json] MODULE_DIR
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	out := flag.String("o", "", "write the ground truth to this file (default: standard output)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: gt-go [-o FILE] MODULE_DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, flag.Arg(0), *out); err != nil {
		fmt.Fprintln(os.Stderr, "gt-go:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dir, out string) error {
	f, err := Extract(ctx, dir)
	if err != nil {
		return err
	}
	if out == "" {
		return f.Write(os.Stdout)
	}
	file, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("write ground truth: %w", err)
	}
	if err := f.Write(file); err != nil {
		file.Close()
		return fmt.Errorf("write ground truth %s: %w", out, err)
	}
	return file.Close()
}
