// Command fakemodel serves a scripted OpenAI-compatible chat model on loopback,
// so a benchmark can point any agent (ours, pi, ...) at the same answers.
//
//	fakemodel -script FILE [-addr 127.0.0.1:0] [-record FILE]
//
// The first stdout line is the base URL (ending in /v1). It serves until
// SIGINT or SIGTERM, then writes every request it received as JSON to -record.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "fakemodel:", err)
		os.Exit(1)
	}
}

func run() error {
	scriptPath := flag.String("script", "", "script file (JSON, see internal/fakemodel/testdata/example.json)")
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	recordPath := flag.String("record", "", "write received requests as JSON to this file on exit")
	flag.Parse()
	if *scriptPath == "" {
		return fmt.Errorf("-script is required")
	}
	script, err := fakemodel.LoadScript(*scriptPath)
	if err != nil {
		return err
	}
	srv, err := fakemodel.Start(script, fakemodel.WithAddr(*addr))
	if err != nil {
		return err
	}
	fmt.Println(srv.URL())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()

	closeErr := srv.Close()
	if *recordPath == "" {
		return closeErr
	}
	data, err := json.MarshalIndent(srv.Requests(), "", "  ")
	if err != nil {
		return fmt.Errorf("encode recorded requests: %w", err)
	}
	if err := os.WriteFile(*recordPath, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write record %s: %w", *recordPath, err)
	}
	return closeErr
}
