// Command graphbench measures the code graph's speed and size on real corpora:
// the full index (wall time and peak RSS of `albert-code graph index --rebuild`)
// side by side in the same run with universal-ctags as the speed peer and a
// tree-sitter parse of the same files as the floor; the incremental re-index
// after a one-file change; and the latency of every question kind, in-process
// and through the CLI. See docs/benchmarks/graph-speed.md.
//
//	go build -o bench/bin/albert-code ./cmd/albert-code
//	go build -o bench/bin/graphbench ./bench/cmd/graphbench
//	bench/bin/graphbench [-n 5] [-corpus ts-rxjs=DIR ...] [-json out.json]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	if code, ok := runRole(os.Args[1:]); ok {
		os.Exit(code)
	}
	if err := mainErr(); err != nil {
		fmt.Fprintln(os.Stderr, "graphbench:", err)
		os.Exit(1)
	}
}

// runRole runs the internal roles this binary plays for its own driver: the
// launcher that measures one command, and the parse floor.
func runRole(args []string) (code int, ok bool) {
	if len(args) == 0 {
		return 0, false
	}
	var err error
	switch args[0] {
	case "launch":
		err = launch(args[1:])
	case "loadfloor":
		if len(args) != 2 {
			err = errors.New("loadfloor: want the repository")
		} else {
			err = runLoadFloor(args[1])
		}
	case "tsindex":
		switch len(args) {
		case 3:
			err = runTreeSitterIndex(args[1], args[2], "")
		case 4:
			err = runTreeSitterIndex(args[1], args[2], args[3])
		default:
			err = errors.New("tsindex: want the repository, the database and optionally a CPU profile to write")
		}
	case "floor":
		if len(args) != 2 {
			err = errors.New("floor: want one file list")
		} else {
			err = runFloor(args[1], os.Stdout)
		}
	default:
		return 0, false
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "graphbench "+args[0]+":", err)
		return 1, true
	}
	return 0, true
}

// defaultModules are the Go corpora of the accuracy benchmark
// (bench/cmd/graphacc/prepare.go), so that both benchmarks speak of the same
// code: three modules of 20k–60k lines whose dependencies the module cache
// holds. A "+" adds a pin: a dependency version the cache lacks replaced by one
// it has, so that the module type-checks offline; the module's code is untouched.
const defaultModules = "github.com/pelletier/go-toml/v2@v2.4.3," +
	"github.com/modelcontextprotocol/go-sdk@v1.8.0+golang.org/x/tools@v0.52.0+golang.org/x/sync@v0.24.0+golang.org/x/sys@v0.50.0," +
	"github.com/segmentio/encoding@v0.5.4+golang.org/x/sys@v0.50.0"

func mainErr() error {
	cfg := config{Log: os.Stderr}
	var albert, modules, phases, only, jsonOut string
	var corpora corpusFlags
	var self, generated, keep bool
	var scaleDir string
	var scaleCalls int
	var genFiles, genPackages int
	flag.StringVar(&albert, "albert-code", "bench/bin/albert-code", "albert-code binary built from this checkout")
	flag.StringVar(&cfg.Ctags, "ctags", "ctags", "universal-ctags binary (the speed peer; its leg reports \"not installed\" without it)")
	flag.IntVar(&cfg.N, "n", 5, "measured full-index runs per leg and corpus")
	flag.IntVar(&cfg.Warmup, "warmup", 1, "unmeasured full-index rounds first (page cache, Go build cache)")
	flag.IntVar(&cfg.Changes, "changes", 20, "one-file changes per change kind and corpus")
	flag.DurationVar(&cfg.ChangeBudget, "change-budget", 5*time.Minute, "stop a change kind on a corpus once its re-indexes took this long (0: never)")
	flag.IntVar(&cfg.Queries, "queries", 100, "symbols sampled per question kind and corpus")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "seed of every sample")
	flag.StringVar(&only, "only", "", "comma-separated corpus names to measure (default: all), to re-run a few")
	flag.StringVar(&phases, "phases", "index,incremental,query", "comma-separated phases to run")
	flag.StringVar(&modules, "go-modules", defaultModules, "comma-separated path@version[+pin@version...] of Go modules to copy from the module cache")
	flag.Var(&corpora, "corpus", "NAME=DIR: a directory to copy and measure (repeatable; bench/graphacc/corpora.sh fetches TypeScript and Python ones)")
	flag.BoolVar(&self, "self", true, "measure this repository (the files git would commit, copied)")
	flag.BoolVar(&generated, "generated", true, "measure the generated Go and Python repositories")
	flag.IntVar(&genFiles, "gen-files", 1000, "files of each generated repository")
	flag.IntVar(&genPackages, "gen-packages", 50, "packages of each generated repository")
	flag.DurationVar(&cfg.Timeout, "timeout", 10*time.Minute, "limit for one command")
	flag.StringVar(&jsonOut, "json", "", "also write the report as JSON to this file")
	flag.BoolVar(&keep, "keep", false, "keep the copied corpora (their path is printed)")
	flag.StringVar(&scaleDir, "scale", "", "measure only the scale leg on this writable Go repository (golang.org/x/tools; see docs/benchmarks/graph-scale.md)")
	flag.IntVar(&scaleCalls, "scale-calls", 500, "scale leg: calls per question to the running server")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if cfg.Self, err = os.Executable(); err != nil {
		return fmt.Errorf("find own binary for the launch role: %w", err)
	}
	bin, err := filepath.Abs(albert)
	if err == nil {
		_, err = os.Stat(bin)
	}
	if err != nil {
		return fmt.Errorf("albert-code binary: %w (go build -o bench/bin/albert-code ./cmd/albert-code)", err)
	}
	cfg.Albert = []string{bin}
	cfg.Phases = strings.Split(phases, ",")
	if cfg.Work, err = os.MkdirTemp("", "graphbench-"); err != nil {
		return err
	}
	if keep {
		fmt.Fprintln(os.Stderr, "corpora kept in", cfg.Work)
	} else {
		defer func() { _ = os.RemoveAll(cfg.Work) }()
	}

	if scaleDir != "" {
		rep, err := runScale(ctx, cfg, scaleDir, scaleCalls)
		if err != nil {
			return err
		}
		printScale(os.Stdout, rep)
		if jsonOut == "" {
			return nil
		}
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(jsonOut, append(data, '\n'), 0o644)
	}
	if generated {
		cfg.Sources = append(cfg.Sources, generatedSources(genFiles, genPackages)...)
	}
	if modules != "" {
		gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			return fmt.Errorf("go env GOMODCACHE: %w", err)
		}
		for m := range strings.SplitSeq(modules, ",") {
			cfg.Sources = append(cfg.Sources, moduleSource(strings.TrimSpace(string(gomodcache)), strings.TrimSpace(m)))
		}
	}
	for _, c := range corpora {
		cfg.Sources = append(cfg.Sources, dirSource(c.name, c.dir))
	}
	if self {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		cfg.Sources = append(cfg.Sources, source{name: "albert-code", prepare: func(ctx context.Context, dst string) (string, error) {
			return copyRepository(ctx, wd, dst)
		}})
	}

	if cfg.Sources, err = selectSources(cfg.Sources, only); err != nil {
		return err
	}
	rep, err := run(ctx, cfg)
	if err != nil {
		return err
	}
	printMarkdown(os.Stdout, rep)
	if jsonOut != "" {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(jsonOut, append(data, '\n'), 0o644)
	}
	return nil
}

// generatedSources are the Go and Python repositories of files files each.
func generatedSources(files, packages int) []source {
	return []source{
		{name: fmt.Sprintf("gen-go-%d", files), generated: true, prepare: func(_ context.Context, dst string) (string, error) {
			return fmt.Sprintf("generated: Go module, %d packages", packages), generateGo(dst, files, packages)
		}},
		{name: fmt.Sprintf("gen-py-%d", files), generated: true, prepare: func(_ context.Context, dst string) (string, error) {
			return fmt.Sprintf("generated: Python, %d packages", packages), generatePython(dst, files, packages)
		}},
	}
}

func moduleSource(gomodcache, spec string) source {
	module, pins, _ := strings.Cut(spec, "+")
	path, _, _ := strings.Cut(module, "@")
	// The last element that is not a major-version suffix names the module.
	elems := strings.Split(path, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[len(elems)-2]
	}
	if !strings.HasPrefix(name, "go-") {
		name = "go-" + name
	}
	return source{name: name, prepare: func(ctx context.Context, dst string) (string, error) {
		origin, err := copyModule(gomodcache, module, dst)
		if err != nil || pins == "" {
			return origin, err
		}
		return origin + " (pinned " + strings.ReplaceAll(pins, "+", ", ") + ")", pinModules(ctx, dst, strings.Split(pins, "+"))
	}}
}

func dirSource(name, dir string) source {
	return source{name: name, prepare: func(_ context.Context, dst string) (string, error) {
		return "copied from " + dir, copyTree(dir, dst)
	}}
}

// selectSources keeps the sources named in only (all when it is empty).
func selectSources(all []source, only string) ([]source, error) {
	if only == "" {
		return all, nil
	}
	var out []source
	var names []string
	for name := range strings.SplitSeq(only, ",") {
		i := slices.IndexFunc(all, func(s source) bool { return s.name == strings.TrimSpace(name) })
		if i < 0 {
			for _, s := range all {
				names = append(names, s.name)
			}
			return nil, fmt.Errorf("-only: no corpus named %q (have %s)", name, strings.Join(names, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

// corpusFlags collects -corpus NAME=DIR.
type corpusFlags []struct{ name, dir string }

func (f *corpusFlags) String() string { return fmt.Sprint(*f) }

func (f *corpusFlags) Set(v string) error {
	name, dir, ok := strings.Cut(v, "=")
	if !ok || name == "" || dir == "" {
		return fmt.Errorf("-corpus %q: want NAME=DIR", v)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	*f = append(*f, struct{ name, dir string }{name, abs})
	return nil
}
