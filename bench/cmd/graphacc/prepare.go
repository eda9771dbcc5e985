package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// goCorpus is a Go module of the module cache used as a corpus. Pins replace
// dependency versions the cache lacks with the ones it has (those of this
// repository's go.mod), so that the corpus type-checks offline; the corpus's own
// code is untouched.
type goCorpus struct {
	Name, Module, Version string
	Pins                  []string
}

// goCorpora: three modules of 20k–60k lines whose dependencies are in the module
// cache (mvdan.cc/sh, honnef.co/go/tools and google/pprof are there too but need
// modules that are not).
var goCorpora = []goCorpus{
	{Name: "go-toml", Module: "github.com/pelletier/go-toml/v2", Version: "v2.4.3"},
	{Name: "mcp-go-sdk", Module: "github.com/modelcontextprotocol/go-sdk", Version: "v1.8.0",
		Pins: []string{"golang.org/x/tools@v0.52.0", "golang.org/x/sync@v0.24.0", "golang.org/x/sys@v0.50.0"}},
	{Name: "segmentio-encoding", Module: "github.com/segmentio/encoding", Version: "v0.5.4",
		Pins: []string{"golang.org/x/sys@v0.50.0"}},
}

// offline keeps the go command from downloading anything.
var offline = []string{"GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod"}

// prepareMain copies the Go corpora out of the (read-only) module cache into
// DIR/corpora and writes their ground truth to DIR/truth with gt-go.
func prepareMain(ctx context.Context, args []string) error {
	fl := flag.NewFlagSet("graphacc prepare", flag.ContinueOnError)
	dir := fl.String("dir", filepath.Join(os.TempDir(), "graphacc"), "where the corpora and their ground truth go")
	if err := fl.Parse(args); err != nil {
		return err
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	for _, sub := range []string{"corpora", "truth", "bin"} {
		if err := os.MkdirAll(filepath.Join(abs, sub), 0o755); err != nil {
			return err
		}
	}
	gt := filepath.Join(abs, "bin", "gt-go")
	if _, err := goCmd(ctx, ".", nil, "build", "-o", gt, "./bench/graphacc/gt-go"); err != nil {
		return fmt.Errorf("build gt-go (run prepare from the repository root): %w", err)
	}
	for _, c := range goCorpora {
		dst := filepath.Join(abs, "corpora", c.Name)
		if err := prepareGo(ctx, c, dst); err != nil {
			return err
		}
		out := filepath.Join(abs, "truth", c.Name+".json")
		cmd := exec.CommandContext(ctx, gt, "-o", out, dst)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("ground truth of %s: %w", c.Name, err)
		}
		fmt.Fprintf(os.Stderr, "graphacc: %s %s@%s → %s\n", c.Name, c.Module, c.Version, out)
	}
	return nil
}

func prepareGo(ctx context.Context, c goCorpus, dst string) error {
	out, err := goCmd(ctx, ".", []string{"GOPROXY=off"}, "mod", "download", "-json", c.Module+"@"+c.Version)
	if err != nil {
		return fmt.Errorf("%s@%s is not in the module cache: %w", c.Module, c.Version, err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		return fmt.Errorf("go mod download %s: no folder in %q", c.Module, out)
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := copyTree(mod.Dir, dst); err != nil {
		return fmt.Errorf("copy %s: %w", c.Module, err)
	}
	if len(c.Pins) > 0 {
		args := []string{"mod", "edit"}
		for _, p := range c.Pins {
			args = append(args, "-require="+p)
		}
		if _, err := goCmd(ctx, dst, offline, args...); err != nil {
			return err
		}
	}
	// Listing with -mod=mod writes the go.sum entries of the pinned versions.
	_, err = goCmd(ctx, dst, offline, "list", "-e", "-deps", "-test", "./...")
	return err
}

func goCmd(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}
