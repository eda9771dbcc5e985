// Command plots draws docs/benchmarks/README.md's charts as SVG files under docs/img/
// from figures.json, a hand transcription of that page's tables.
//
//	go run ./bench/cmd/plots [-data bench/cmd/plots/figures.json] [-out docs/img]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/etalab-ia/albert-code/bench/internal/plot"
)

// figures is figures.json.
type figures struct {
	Overhead struct {
		Runs        []string    `json:"runs"`
		Contestants []string    `json:"contestants"`
		MedianMS    [][]float64 `json:"median_ms"`
	} `json:"overhead"`
	Index struct {
		Corpora []struct {
			Name     string  `json:"name"`
			Lines    float64 `json:"lines"`
			AlbertMS float64 `json:"albert_ms"`
			CtagsMS  float64 `json:"ctags_ms"`
		} `json:"corpora"`
	} `json:"index"`
	Serve struct {
		Clients []float64 `json:"clients"`
		Floor   []float64 `json:"floor_ttfb_p50_ms"`
		Serve   []float64 `json:"serve_ttfb_p50_ms"`
	} `json:"serve"`
}

func main() {
	data := flag.String("data", filepath.Join("bench", "cmd", "plots", "figures.json"), "the figures to plot")
	out := flag.String("out", filepath.Join("docs", "img"), "the folder the SVG files go to")
	flag.Parse()
	if err := run(*data, *out); err != nil {
		fmt.Fprintln(os.Stderr, "plots:", err)
		os.Exit(1)
	}
}

func run(dataPath, outDir string) error {
	raw, err := os.ReadFile(dataPath)
	if err != nil {
		return fmt.Errorf("read the figures: %w (run from the repository's root, or pass -data)", err)
	}
	var f figures
	if err := json.Unmarshal(raw, &f); err != nil {
		return fmt.Errorf("%s: %w", dataPath, err)
	}
	charts, err := draw(f)
	if err != nil {
		return fmt.Errorf("%s: %w", dataPath, err)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(charts)) {
		svg := charts[name]
		path := filepath.Join(outDir, name)
		if err := os.WriteFile(path, svg, 0o644); err != nil {
			return err
		}
		fmt.Println(path)
	}
	return nil
}

// draw makes each chart's SVG, by file name.
func draw(f figures) (map[string][]byte, error) {
	out := map[string][]byte{}
	o := f.Overhead
	svg, err := plot.BarChart{Title: "albert-code -p: overhead per run against pi and the floor (median)", YLabel: "overhead, ms (log)",
		Categories: o.Runs, Series: o.Contestants, Values: o.MedianMS, LogY: true}.SVG()
	if err != nil {
		return nil, err
	}
	out["bench-overhead.svg"] = svg

	var ours, ctags []plot.Point
	for _, c := range f.Index.Corpora {
		ours = append(ours, plot.Point{X: c.Lines / 1000, Y: c.AlbertMS / 1000, Label: c.Name})
		ctags = append(ctags, plot.Point{X: c.Lines / 1000, Y: c.CtagsMS / 1000})
	}
	svg, err = plot.LineChart{Title: "Code graph: full index time against repository size", XLabel: "lines of code (thousands)",
		YLabel: "wall time, s", Series: []plot.Series{
			{Name: "albert-code graph index", Points: ours, Scatter: true},
			{Name: "universal-ctags", Points: ctags, Scatter: true}}}.SVG()
	if err != nil {
		return nil, err
	}
	out["bench-index.svg"] = svg

	s := f.Serve
	if len(s.Clients) != len(s.Floor) || len(s.Clients) != len(s.Serve) {
		return nil, fmt.Errorf("serve: %d client counts, %d floor and %d serve figures: want one of each per count", len(s.Clients), len(s.Floor), len(s.Serve))
	}
	var floor, serve []plot.Point
	for i, c := range s.Clients {
		floor = append(floor, plot.Point{X: c, Y: s.Floor[i]})
		serve = append(serve, plot.Point{X: c, Y: s.Serve[i], Label: fmt.Sprintf("%g ms", s.Serve[i])})
	}
	svg, err = plot.LineChart{Title: "serve: time to first byte (p50) against concurrent clients", XLabel: "clients (closed loop)",
		YLabel: "TTFB p50, ms", Series: []plot.Series{{Name: "albert-code serve", Points: serve}, {Name: "floor (the fake model)", Points: floor}}}.SVG()
	if err != nil {
		return nil, err
	}
	out["bench-serve.svg"] = svg
	return out, nil
}
