// Command mapbench measures the code graph map (internal/graph/webmap) on an
// indexed repository in headless Chromium: the time from navigation to the map
// drawn (the page's "map-drawn" performance mark, set on cytoscape's first
// render), cold (a fresh server: the community partition is computed) and warm
// (a reload: the partition is kept). In the same run, the floor: the partition
// alone (query.Communities on a freshly opened index), which no drawing of
// communities can skip.
//
//	albert-code graph index /tmp/xtools
//	go run ./bench/cmd/mapbench -repo /tmp/xtools -n 5
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/etalab-ia/albert-code/internal/browsertest"
	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/webmap"
)

// screenshot is -screenshot.
var screenshot string

// result is one run's figures, in milliseconds.
type result struct {
	Floor     float64 `json:"partition_floor_ms"`
	ColdPaint float64 `json:"cold_paint_ms"`
	WarmPaint float64 `json:"warm_paint_ms"`
	// WarmData is when the warm page had the map's JSON (its resource timing's
	// responseEnd); WarmDraw the layout and first render after it.
	WarmData float64 `json:"warm_data_ms"`
	WarmDraw float64 `json:"warm_draw_ms"`
	Links    int     `json:"links"`
	Mode     string  `json:"mode"`
	Drawn    int     `json:"nodes_drawn"`
	Symbols  int     `json:"symbols"`
}

func main() {
	repo := flag.String("repo", "", "an indexed repository (albert-code graph index REPO first)")
	n := flag.Int("n", 5, "runs; the medians are printed")
	jsonOut := flag.String("json", "", "also write every run's figures to this file")
	flag.StringVar(&screenshot, "screenshot", "", "save the last run's warm map as this PNG")
	flag.Parse()
	if *repo == "" {
		fmt.Fprintln(os.Stderr, "mapbench: -repo is required: an indexed repository")
		os.Exit(2)
	}
	var runs []result
	for i := range *n {
		r, err := once(*repo)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mapbench: run %d: %v\n", i+1, err)
			os.Exit(1)
		}
		fmt.Printf("run %d: floor %.0f ms, cold paint %.0f ms, warm paint %.0f ms (data at %.0f ms, layout and render %.0f ms; %s, %d nodes and %d links drawn of %d symbols)\n",
			i+1, r.Floor, r.ColdPaint, r.WarmPaint, r.WarmData, r.WarmDraw, r.Mode, r.Drawn, r.Links, r.Symbols)
		runs = append(runs, r)
	}
	med := func(f func(result) float64) float64 {
		v := make([]float64, len(runs))
		for i, r := range runs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	fmt.Printf("median of %d: floor %.0f ms, cold paint %.0f ms (×%.2f the floor), warm paint %.0f ms\n", len(runs),
		med(func(r result) float64 { return r.Floor }), med(func(r result) float64 { return r.ColdPaint }),
		med(func(r result) float64 { return r.ColdPaint })/med(func(r result) float64 { return r.Floor }),
		med(func(r result) float64 { return r.WarmPaint }))
	if *jsonOut != "" {
		data, _ := json.MarshalIndent(runs, "", "  ")
		if err := os.WriteFile(*jsonOut, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "mapbench:", err)
			os.Exit(1)
		}
	}
}

func once(repo string) (result, error) {
	var r result
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	path, err := agenttool.DefaultIndexPath(repo, false)
	if err != nil {
		return r, err
	}
	floor, symbols, err := partitionFloor(ctx, path)
	if err != nil {
		return r, err
	}
	r.Floor, r.Symbols = floor, symbols

	m, err := webmap.New(webmap.Options{Root: repo, IndexPath: path})
	if err != nil {
		return r, err
	}
	defer m.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return r, err
	}
	srv := &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/"

	tab, stop, err := browsertest.Launch(ctx)
	if err != nil {
		return r, err
	}
	defer stop()
	if r.ColdPaint, err = paint(tab, url); err != nil {
		return r, fmt.Errorf("cold: %w", err)
	}
	if r.WarmPaint, err = paint(tab, url+"?warm"); err != nil {
		return r, fmt.Errorf("warm: %w", err)
	}
	if r.Mode, err = chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.drawn`)); err != nil {
		return r, err
	}
	if r.WarmData, err = chromedp.Run(tab, chromedp.Evaluate[float64](`performance.getEntriesByType("resource").find(e => e.name.endsWith("/api/map")).responseEnd`)); err != nil {
		return r, err
	}
	if r.WarmDraw, err = chromedp.Run(tab, chromedp.Evaluate[float64](`albertMap.drawnMs`)); err != nil {
		return r, err
	}
	if r.Links, err = chromedp.Run(tab, chromedp.Evaluate[int](`albertMap.cy.edges().length`)); err != nil {
		return r, err
	}
	if r.Drawn, err = chromedp.Run(tab, chromedp.Evaluate[int](`albertMap.cy.nodes().length`)); err != nil {
		return r, err
	}
	if screenshot != "" {
		png, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
		if err != nil {
			return r, err
		}
		return r, os.WriteFile(screenshot, png, 0o644)
	}
	return r, nil
}

// partitionFloor is the time to partition the index into communities on a
// freshly opened store, as the map's first request must.
func partitionFloor(ctx context.Context, path string) (ms float64, symbols int, err error) {
	st, err := store.OpenReadOnly(path)
	if err != nil {
		return 0, 0, err
	}
	defer st.Close()
	start := time.Now()
	a, err := query.Communities(ctx, st, "", query.CommunityOptions{})
	if err != nil {
		return 0, 0, err
	}
	return float64(time.Since(start).Microseconds()) / 1000, a.Nodes, nil
}

// paint navigates to url and waits for the map-drawn mark; its start time is
// measured from the navigation's start.
func paint(tab context.Context, url string) (float64, error) {
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		return 0, err
	}
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		ms, err := chromedp.Run(tab, chromedp.Evaluate[float64](`(performance.getEntriesByName("map-drawn")[0] || {startTime: -1}).startTime`))
		if err == nil && ms >= 0 {
			return ms, nil
		}
		if state, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.state`)); state == "error" || state == "empty" {
			note, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("note").textContent`))
			return 0, fmt.Errorf("the page shows %s: %s", state, note)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return 0, fmt.Errorf("no map drawn within 3 minutes")
}
