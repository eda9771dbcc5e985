package metrics

import (
	"math"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestWriteGolden(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	req := r.Counter("http_requests_total", "Requests, by route and code.", "route", "code")
	req.With("POST /run", "200").Inc()
	req.With("POST /run", "200").Add(2)
	req.With("GET /x", "404").Inc()
	req.With("a\\b\"c\nd", "500").Inc()
	r.Counter("refused_total", "Refused.\nSecond line with a \\ backslash.")
	g := r.Gauge("temperature", "", "room")
	g.With("b").Set(-1.5)
	g.With("a").Set(math.Inf(1))
	r.GaugeFunc("running", "Running now.", func() float64 { return 3 })
	h := r.Histogram("duration_seconds", "Durations.", []float64{5, 1, math.Inf(1)}, "backend")
	h.With("claude").Observe(0.5)
	h.With("claude").Observe(1)
	h.With("claude").Observe(7)
	r.Counter("unused_total", "Never used: left out.", "x")

	var b strings.Builder
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := `# HELP duration_seconds Durations.
# TYPE duration_seconds histogram
duration_seconds_bucket{backend="claude",le="1"} 2
duration_seconds_bucket{backend="claude",le="5"} 2
duration_seconds_bucket{backend="claude",le="+Inf"} 3
duration_seconds_sum{backend="claude"} 8.5
duration_seconds_count{backend="claude"} 3
# HELP http_requests_total Requests, by route and code.
# TYPE http_requests_total counter
http_requests_total{code="404",route="GET /x"} 1
http_requests_total{code="200",route="POST /run"} 3
http_requests_total{code="500",route="a\\b\"c\nd"} 1
# HELP refused_total Refused.\nSecond line with a \\ backslash.
# TYPE refused_total counter
refused_total 0
# HELP running Running now.
# TYPE running gauge
running 3
# TYPE temperature gauge
temperature{room="a"} +Inf
temperature{room="b"} -1.5
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestServeHTTPAndRuntime(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	r.RegisterRuntime()
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); ct != ContentType {
		t.Errorf("Content-Type %q", ct)
	}
	for _, want := range []string{"# TYPE go_goroutines gauge\ngo_goroutines ", `go_info{version="go`, "go_gc_cycles_total ", "process_start_time_seconds "} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("lacks %q:\n%s", want, rec.Body)
		}
	}
}

func TestConcurrentUpdates(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	c := r.Counter("c_total", "", "k")
	h := r.Histogram("h", "", []float64{1}, "k")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 1000 {
				c.With("x").Inc()
				h.With("x").Observe(float64(i % 2))
				_ = r.Write(&strings.Builder{})
			}
		})
	}
	wg.Wait()
	var b strings.Builder
	_ = r.Write(&b)
	for _, want := range []string{`c_total{k="x"} 8000`, `h_bucket{k="x",le="+Inf"} 8000`, `h_count{k="x"} 8000`, `h_sum{k="x"} 4000`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("lacks %q:\n%s", want, b.String())
		}
	}
}

func TestRegistrationPanics(t *testing.T) {
	t.Parallel()
	for name, f := range map[string]func(r *Registry){
		"bad name":          func(r *Registry) { r.Counter("1x", "") },
		"reserved label":    func(r *Registry) { r.Counter("x", "", "__a") },
		"le on histogram":   func(r *Registry) { r.Histogram("x", "", nil, "le") },
		"duplicate":         func(r *Registry) { r.Counter("x", ""); r.Gauge("x", "") },
		"wrong label count": func(r *Registry) { r.Counter("x", "", "a").With("1", "2") },
		"negative counter":  func(r *Registry) { r.Counter("x", "").With().Add(-1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f(NewRegistry())
		}()
	}
}

// The live heap is read from the runtime after a collection: it is there and not zero.
func TestLiveHeapAfterACollection(t *testing.T) {
	r := NewRegistry()
	r.RegisterRuntime()
	runtime.GC()
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for line := range strings.Lines(rec.Body.String()) {
		if v, ok := strings.CutPrefix(line, "go_gc_heap_live_bytes "); ok {
			if n, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil || n <= 0 {
				t.Fatalf("go_gc_heap_live_bytes %q", v)
			}
			return
		}
	}
	t.Fatalf("no go_gc_heap_live_bytes in:\n%s", rec.Body)
}
