// Command consolebench measures serve's web console (internal/serve/console) in
// headless Chromium: how soon the runs page paints and how much memory it holds
// with a run store of 10 runs and of 10,000, against the floor of the same HTML
// served as a static file (the browser's own cost for that document, with no
// server work). It also times the server's answer for the page alone.
//
//	go run ./bench/cmd/consolebench -runs 10000 -n 5
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/etalab-ia/albert-code/internal/browsertest"
	"github.com/etalab-ia/albert-code/internal/serve/console"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

const token = "consolebench-token-0123456789"

// sample is one load of a page, in milliseconds and bytes.
type sample struct {
	ResponseEnd float64 `json:"response_end_ms"`
	FCP         float64 `json:"first_contentful_paint_ms"`
	DOMReady    float64 `json:"dom_content_loaded_ms"`
	Heap        int64   `json:"js_heap_used_bytes"`
	Elements    int64   `json:"elements"`
	// RendererRSS is the renderer processes' resident memory with this page
	// open in a tab of its own, less the same before the tab was opened.
	RendererRSS int64 `json:"renderer_rss_bytes"`
	Rows        int   `json:"rows"`
	HTMLBytes   int   `json:"html_bytes"`
}

type report struct {
	Runs     int       `json:"runs_in_store"`
	SeedSec  float64   `json:"seed_s"`
	ServerMs []float64 `json:"server_ms"`
	Page     []sample  `json:"page"`
	Floor    []sample  `json:"floor"`
	Unpaged  []sample  `json:"unpaged"`
}

func main() {
	runs := flag.Int("runs", 10000, "runs in the large store")
	n := flag.Int("n", 5, "loads of each page; medians are printed")
	jsonOut := flag.String("json", "", "write every sample to this file")
	flag.Parse()
	var reports []report
	for _, size := range []int{10, *runs} {
		r, err := measure(size, *n)
		if err != nil {
			fmt.Fprintln(os.Stderr, "consolebench:", err)
			os.Exit(1)
		}
		reports = append(reports, r)
		print(r)
	}
	if *jsonOut != "" {
		data, _ := json.MarshalIndent(reports, "", "  ")
		if err := os.WriteFile(*jsonOut, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "consolebench:", err)
			os.Exit(1)
		}
	}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func col(s []sample, f func(sample) float64) float64 {
	v := make([]float64, len(s))
	for i, x := range s {
		v[i] = f(x)
	}
	return median(v)
}

func print(r report) {
	fmt.Printf("%d runs in the store (seeded in %.1f s); medians of %d loads:\n", r.Runs, r.SeedSec, len(r.Page))
	fmt.Printf("  server: GET /ui/runs answered in %.1f ms\n", median(r.ServerMs))
	for _, p := range []struct {
		name string
		s    []sample
	}{{"runs page", r.Page}, {"floor (same HTML, static)", r.Floor}, {"unpaged (every run a row)", r.Unpaged}} {
		fmt.Printf("  %-26s response end %6.1f ms, first contentful paint %6.1f ms, DOMContentLoaded %6.1f ms, JS heap %5.2f MB, renderer +%5.1f MB, %4.0f elements, %d rows, %d bytes of HTML\n",
			p.name, col(p.s, func(x sample) float64 { return x.ResponseEnd }), col(p.s, func(x sample) float64 { return x.FCP }),
			col(p.s, func(x sample) float64 { return x.DOMReady }), col(p.s, func(x sample) float64 { return float64(x.Heap) })/1e6,
			col(p.s, func(x sample) float64 { return float64(x.RendererRSS) })/1e6,
			col(p.s, func(x sample) float64 { return float64(x.Elements) }), p.s[0].Rows, p.s[0].HTMLBytes)
	}
}

func measure(size, n int) (report, error) {
	r := report{Runs: size}
	dir, err := os.MkdirTemp("", "consolebench-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	rootDir := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(rootDir, "proj"), 0o755); err != nil {
		return r, err
	}
	store, err := runstore.OpenSQLite(filepath.Join(dir, "runs.db"), runstore.Options{})
	if err != nil {
		return r, err
	}
	defer store.Close()
	start := time.Now()
	if err := seed(store, filepath.Join(rootDir, "proj"), size); err != nil {
		return r, err
	}
	r.SeedSec = time.Since(start).Seconds()
	root, err := workspace.NewRoot(rootDir)
	if err != nil {
		return r, err
	}
	con, err := console.New(console.Options{Store: store, Root: root, Tokens: []string{token}})
	if err != nil {
		return r, err
	}
	mux := http.NewServeMux()
	con.Mount(mux)
	var floorHTML, unpagedHTML []byte
	mux.HandleFunc("GET /floor", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(floorHTML)
	})
	mux.HandleFunc("GET /unpaged", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(unpagedHTML)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return r, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	for range n {
		start := time.Now()
		body, err := get(base + "/ui/runs")
		if err != nil {
			return r, err
		}
		r.ServerMs = append(r.ServerMs, float64(time.Since(start).Microseconds())/1000)
		floorHTML = body
	}
	unpagedHTML = unpaged(floorHTML, size)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	tab, stop, err := browsertest.Launch(ctx)
	if err != nil {
		return r, err
	}
	defer stop()
	if err := chromedp.Do(tab, chromedp.Navigate(base+"/ui/login"), chromedp.SendKeys(chromedp.ID("token"), token),
		chromedp.Submit(chromedp.ID("token")), chromedp.WaitVisible(chromedp.ID("runs"))); err != nil {
		return r, fmt.Errorf("log in: %w", err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate("about:blank")); err != nil {
		return r, err
	}
	for range n {
		s, err := load(tab, base+"/ui/runs")
		if err != nil {
			return r, err
		}
		r.Page = append(r.Page, s)
		if s, err = load(tab, base+"/floor"); err != nil {
			return r, err
		}
		r.Floor = append(r.Floor, s)
		if s, err = load(tab, base+"/unpaged"); err != nil {
			return r, err
		}
		r.Unpaged = append(r.Unpaged, s)
	}
	return r, nil
}

// unpaged is the runs page as it would be without paging: its rows repeated
// until there is one per run in the store, the refresh script left out (it
// would put the paged table back).
func unpaged(page []byte, size int) []byte {
	html := string(page)
	open, end := strings.Index(html, "<tbody>"), strings.Index(html, "</tbody>")
	if open < 0 || end < 0 {
		return page
	}
	rows := html[open+len("<tbody>") : end]
	perPage := max(1, strings.Count(rows, "<tr "))
	var b strings.Builder
	b.WriteString(strings.Replace(html[:open], `data-refresh=`, `data-off=`, 1))
	b.WriteString("<tbody>")
	for range (size + perPage - 1) / perPage {
		b.WriteString(rows)
	}
	b.WriteString(html[end:])
	return []byte(b.String())
}

// seed records size finished runs, each with an attempt and a result, as the
// API would.
func seed(store *runstore.SQLite, ws string, size int) error {
	ctx := context.Background()
	for i := range size {
		id := fmt.Sprintf("bench%027d", i)
		req := fmt.Sprintf(`{"prompt":"task %d: summarise the changes","model":"albert-large"}`, i)
		if err := store.Create(ctx, runstore.Run{ID: id, Workspace: ws, Backend: "native", Status: runstore.Queued, Request: []byte(req)}); err != nil {
			return err
		}
		if err := store.Start(ctx, id); err != nil {
			return err
		}
		if err := store.AppendAttempt(ctx, id, runstore.Attempt{Usage: []byte(`{"input_tokens":1200,"output_tokens":80,"cost":0.0012,"currency":"EUR"}`)}); err != nil {
			return err
		}
		if err := store.Finish(ctx, id, runstore.Completed, []byte(`{"text":"done","httpStatus":200}`), ""); err != nil {
			return err
		}
	}
	return nil
}

func get(u string) ([]byte, error) {
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d", u, resp.StatusCode)
	}
	return body, err
}

// load navigates to u, waits for the load event, and reads the navigation's
// timings, then the JS heap after a garbage collection and the DOM's size.
func load(parent context.Context, u string) (sample, error) {
	var s sample
	before := renderersRSS(parent)
	tab, closeTab := chromedp.NewContext(parent)
	defer closeTab()
	if _, err := url.Parse(u); err != nil {
		return s, err
	}
	if err := chromedp.Do(tab, chromedp.Navigate(u), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		return s, fmt.Errorf("open %s: %w", u, err)
	}
	var timing struct {
		ResponseEnd float64 `json:"responseEnd"`
		DOMReady    float64 `json:"domContentLoadedEventEnd"`
		FCP         float64 `json:"fcp"`
		Rows        int     `json:"rows"`
		Elements    int64   `json:"elements"`
	}
	expr := `(() => { const n = performance.getEntriesByType("navigation")[0];
		const p = performance.getEntriesByName("first-contentful-paint")[0];
		return {responseEnd: n.responseEnd, domContentLoadedEventEnd: n.domContentLoadedEventEnd,
			fcp: p ? p.startTime : -1, rows: document.querySelectorAll("tr.run").length,
			elements: document.getElementsByTagName("*").length}; })()`
	for deadline := time.Now().Add(30 * time.Second); ; {
		v, err := chromedp.Run(tab, chromedp.Evaluate[json.RawMessage](expr))
		if err == nil && json.Unmarshal(v, &timing) == nil && timing.FCP >= 0 && timing.DOMReady > 0 {
			break
		}
		if time.Now().After(deadline) {
			return s, fmt.Errorf("%s: no first contentful paint within 30 s", u)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.ResponseEnd, s.FCP, s.DOMReady, s.Rows, s.Elements = timing.ResponseEnd, timing.FCP, timing.DOMReady, timing.Rows, timing.Elements
	if _, err := chromedp.Call(tab, performance.Enable, performance.EnableParams{}); err != nil {
		return s, err
	}
	if _, err := chromedp.Call(tab, heapprofiler.CollectGarbage, struct{}{}); err != nil {
		return s, err
	}
	m, err := chromedp.Call(tab, performance.GetMetrics, struct{}{})
	if err != nil {
		return s, err
	}
	for _, x := range m.Metrics {
		switch x.Name {
		case "JSHeapUsedSize":
			s.Heap = int64(x.Value)
		}
	}
	html, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.documentElement.outerHTML.length`))
	s.HTMLBytes = html
	s.RendererRSS = renderersRSS(tab) - before
	return s, err
}
