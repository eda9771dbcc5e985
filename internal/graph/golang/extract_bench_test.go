package golang

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// extractDir adds a module to BenchmarkExtract, for profiling a large one:
//
//	go test -run '^$' -bench 'Extract/dir/export' -benchtime 1x -cpuprofile cpu.out \
//	    ./internal/graph/golang/ -args -extract.dir /tmp/xtools
var extractDir = flag.String("extract.dir", "", "a module directory BenchmarkExtract also extracts (as \"dir\")")

// BenchmarkExtract times a full extraction of this repository and of cobra from the
// module cache (loaded in place: loading writes nothing), and of -extract.dir when
// given. Run with
//
//	go test -run '^$' -bench Extract -benchtime 3x ./internal/graph/golang/
//
// The export sub-benchmarks read dependencies from compiler export data, so a
// warm GOCACHE matters (the first run compiles what it lacks); the source ones
// type-check them from source (Options.FromSource).
func BenchmarkExtract(b *testing.B) {
	repo, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	targets := []struct{ name, dir string }{{"albert-code", repo}}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		dir := filepath.Join(strings.TrimSpace(string(out)), "github.com", "spf13", "cobra@v1.10.2")
		if _, err := os.Stat(dir); err == nil {
			targets = append(targets, struct{ name, dir string }{"cobra", dir})
		}
	}
	if *extractDir != "" {
		targets = append(targets, struct{ name, dir string }{"dir", *extractDir})
	}
	for _, tg := range targets {
		for _, fromSource := range []bool{false, true} {
			name := tg.name + "/export"
			if fromSource {
				name = tg.name + "/source"
			}
			b.Run(name, func(b *testing.B) { benchExtract(b, tg.dir, fromSource) })
		}
	}
}

func benchExtract(b *testing.B, dir string, fromSource bool) {
	opts := DefaultOptions()
	opts.FromSource = fromSource
	var files, nodes, edges, errs int
	for b.Loop() {
		res, err := Extract(context.Background(), dir, opts)
		if err != nil {
			b.Fatal(err)
		}
		files, nodes, edges, errs = len(res.Files), 0, 0, len(res.Errors)
		for _, f := range res.Files {
			nodes += len(f.Nodes)
			edges += len(f.Edges)
		}
	}
	b.ReportMetric(float64(files), "files")
	b.ReportMetric(float64(nodes), "nodes")
	b.ReportMetric(float64(edges), "edges")
	b.ReportMetric(float64(errs), "errors")
}
