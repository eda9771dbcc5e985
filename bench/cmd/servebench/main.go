// Command servebench measures `albert-code serve` with the native adapter on the
// fake model server (127.0.0.1), in three legs; see docs/benchmarks/serve.md:
//
//   - latency: streamed /v1/chat/completions under c concurrent clients (hey, or
//     an in-process Go client), time to first byte and requests per second,
//     against the fake model called directly as the floor, alternating;
//
//   - async: a burst of async POST /run, every run id followed through
//     GET /run/result to a final status; drain time and the server's peak RSS;
//
//   - idle: RSS and heap of the server holding N runs that wait for the model,
//     and after they are cancelled.
//
//     go build -o bench/bin/albert-code ./cmd/albert-code
//     go run ./bench/cmd/servebench [-rounds 3] [-n 3000] [-c 50] [-legs latency,async,idle]
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

type config struct {
	bin        string
	rounds     int
	n, c       int
	warmup     int
	asyncN     int
	idleNs     []int
	gcWait     time.Duration
	settle     time.Duration
	legs       map[string]bool
	gen        loadGen
	firstByte  time.Duration
	asyncFirst time.Duration
	drainLimit time.Duration
	root       string
	qps        float64
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "servebench:", err)
		os.Exit(1)
	}
}

func run() error {
	var cfg config
	flag.StringVar(&cfg.bin, "albert-code", "bench/bin/albert-code", "albert-code binary")
	flag.IntVar(&cfg.rounds, "rounds", 3, "rounds of each leg (latency: floor and serve alternate within a round)")
	flag.IntVar(&cfg.n, "n", 3000, "requests per latency leg")
	flag.IntVar(&cfg.c, "c", 50, "concurrent clients of the latency leg")
	flag.Float64Var(&cfg.qps, "q", 0, "requests a second per client in the latency leg (hey -q); 0: as fast as answered (closed loop)")
	flag.IntVar(&cfg.warmup, "warmup", 500, "unmeasured requests to each target before the latency rounds")
	flag.IntVar(&cfg.asyncN, "async", 200, "concurrent async runs of the async leg")
	idle := flag.String("idle", "0,50,200,200", "runs held waiting in the idle leg, in order, on one server")
	flag.DurationVar(&cfg.settle, "settle", 5*time.Second, "wait before an idle-leg RSS reading")
	flag.DurationVar(&cfg.gcWait, "gc-wait", 150*time.Second, "after settle, how long an idle-leg reading waits for a collection (the live heap is read after one)")
	legs := flag.String("legs", "latency,async,idle", "legs to run")
	heyBin := flag.String("hey", "hey", "hey binary; empty: the in-process Go client")
	flag.DurationVar(&cfg.firstByte, "first-byte", 0, "fake model's delay before its first byte in the latency leg")
	flag.DurationVar(&cfg.asyncFirst, "async-first-byte", 50*time.Millisecond, "fake model's delay before its first byte in the async leg")
	flag.DurationVar(&cfg.drainLimit, "drain-limit", 2*time.Minute, "limit for an async burst to reach final statuses")
	flag.Parse()

	cfg.legs = map[string]bool{}
	for l := range strings.SplitSeq(*legs, ",") {
		cfg.legs[strings.TrimSpace(l)] = true
	}
	for f := range strings.SplitSeq(*idle, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("-idle: %w", err)
		}
		cfg.idleNs = append(cfg.idleNs, n)
	}
	cfg.gen = goGen{}
	if *heyBin != "" {
		path, err := exec.LookPath(*heyBin)
		if err != nil {
			return fmt.Errorf("find hey (apt-get install -y hey, or -hey '' for the in-process client): %w", err)
		}
		cfg.gen = heyGen{bin: path}
	}
	bin, err := filepath.Abs(cfg.bin)
	if err == nil {
		_, err = os.Stat(bin)
	}
	if err != nil {
		return fmt.Errorf("%w (go build -o bench/bin/albert-code ./cmd/albert-code)", err)
	}
	cfg.bin = bin
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg.root, err = os.MkdirTemp("", "servebench-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(cfg.root) }()

	fmt.Printf("machine: %d CPUs, %s, load generator: %s, load average before: %s\n\n",
		runtime.NumCPU(), runtime.Version(), cfg.gen.name(), loadAverage())
	if cfg.legs["latency"] {
		if err := latencyLeg(ctx, cfg); err != nil {
			return err
		}
	}
	if cfg.legs["async"] {
		if err := asyncLeg(ctx, cfg); err != nil {
			return err
		}
	}
	if cfg.legs["idle"] {
		if err := idleLeg(ctx, cfg); err != nil {
			return err
		}
	}
	fmt.Printf("load average after: %s\n", loadAverage())
	return nil
}

// fakeOn starts a fresh fake model on addr (a fixed port, so one serve process
// can outlive several fakes): each leg gets one whose recorded requests start empty.
func fakeOn(addr string, script fakemodel.Script) (*fakemodel.Server, error) {
	var err error
	for range 50 {
		var s *fakemodel.Server
		if s, err = fakemodel.Start(script, fakemodel.WithAddr(addr)); err == nil {
			return s, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, err
}

func latencyLeg(ctx context.Context, cfg config) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	fakeURL := "http://" + addr + "/v1"
	srv, err := startServe(ctx, cfg.bin, fakeURL, cfg.root)
	if err != nil {
		return err
	}
	defer srv.stop()
	targets := []struct {
		name, url string
		auth      bool
	}{
		{"floor", fakeURL + "/chat/completions", false},
		{"serve", srv.base + "/v1/chat/completions", true},
	}
	leg := func(i int, n int) (loadResult, error) {
		fake, err := fakeOn(addr, repeat(chatTurn(cfg.firstByte), n))
		if err != nil {
			return loadResult{}, err
		}
		defer func() { _ = fake.Close(); runtime.GC() }()
		cpu0 := srv.cpu()
		res, err := cfg.gen.run(ctx, targets[i].url, targets[i].auth, n, cfg.c, cfg.qps)
		res.cpu = srv.cpu() - cpu0
		if err == nil && res.ok > 0 && len(fake.ModelRequests()) != n {
			err = fmt.Errorf("%s: the fake model got %d chat requests for %d sent", targets[i].name, len(fake.ModelRequests()), n)
		}
		return res, err
	}
	if cfg.warmup > 0 {
		for i := range targets {
			if _, err := leg(i, cfg.warmup); err != nil {
				return err
			}
		}
	}
	results := map[string][]loadResult{}
	for r := range cfg.rounds {
		for j := range targets {
			i := (r + j) % len(targets) // alternate who goes first
			res, err := leg(i, cfg.n)
			if err != nil {
				return err
			}
			results[targets[i].name] = append(results[targets[i].name], res)
			fmt.Fprintf(os.Stderr, "latency round %d %-5s %5d ok %3d bad  %7.0f req/s  ttfb p50 %6.2f ms  p99 %6.2f ms  serve CPU %.2f ms/req  load %s\n",
				r+1, targets[i].name, res.ok, res.bad, res.rps(), quantile(res.ttfb, .5), quantile(res.ttfb, .99), ms(res.cpu)/float64(cfg.n), loadAverage())
		}
	}
	pace := "closed loop (each client sends as soon as it is answered)"
	if cfg.qps > 0 {
		pace = fmt.Sprintf("each client at most %g req/s (%g req/s offered)", cfg.qps, cfg.qps*float64(cfg.c))
	}
	fmt.Printf("### Latency: streamed /v1/chat/completions, %d clients, %s, %d requests a leg, %s\n\n", cfg.c, pace, cfg.n, cfg.gen.name())
	fmt.Println("| round | floor req/s | serve req/s | floor/serve | floor TTFB p50 (ms) | serve TTFB p50 (ms) | added p50 (ms) | floor TTFB p99 (ms) | serve TTFB p99 (ms) | added p99 (ms) | serve CPU per request (ms) | errors |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var added50, added99, ratio []float64
	bad := 0
	for r := range cfg.rounds {
		f, s := results["floor"][r], results["serve"][r]
		a50 := quantile(s.ttfb, .5) - quantile(f.ttfb, .5)
		a99 := quantile(s.ttfb, .99) - quantile(f.ttfb, .99)
		bad += f.bad + s.bad
		added50, added99, ratio = append(added50, a50), append(added99, a99), append(ratio, f.rps()/s.rps())
		fmt.Printf("| %d | %.0f | %.0f | ×%.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %d |\n", r+1,
			f.rps(), s.rps(), f.rps()/s.rps(), quantile(f.ttfb, .5), quantile(s.ttfb, .5), a50,
			quantile(f.ttfb, .99), quantile(s.ttfb, .99), a99, ms(s.cpu)/float64(cfg.n), f.bad+s.bad)
	}
	fmt.Printf("\nmedian over rounds: added p50 %.2f ms (goal ≤ 2 ms), added p99 %.2f ms, floor/serve req/s ×%.1f\n\n",
		quantile(added50, .5), quantile(added99, .5), quantile(ratio, .5))
	if bad > 0 {
		return fmt.Errorf("%d chat requests failed", bad)
	}
	return nil
}

func asyncLeg(ctx context.Context, cfg config) error {
	fmt.Printf("### Async: %d concurrent POST /run {async: true}, each on its own workspace, fake first byte %v\n\n", cfg.asyncN, cfg.asyncFirst)
	fmt.Println("| round | accepted (202) | final statuses | model requests | all 202s back (ms) | drain (ms) | RSS before (MiB) | peak RSS VmHWM (MiB) |")
	fmt.Println("|---|---:|---|---:|---:|---:|---:|---:|")
	var drains, hwms []float64
	lost := 0
	for r := range cfg.rounds {
		fake, err := fakemodel.Start(repeat(chatTurn(cfg.asyncFirst), cfg.asyncN), fakemodel.WithAddr("127.0.0.1:0"))
		if err != nil {
			return err
		}
		srv, err := startServe(ctx, cfg.bin, fake.URL(), cfg.root)
		if err != nil {
			_ = fake.Close()
			return err
		}
		res := asyncResult{n: cfg.asyncN}
		res.startKiB, _, _ = srv.procStatus()
		start := time.Now()
		ids, err := submit(ctx, srv, cfg.asyncN, fmt.Sprintf("a%d", r))
		res.submit = time.Since(start)
		for _, id := range ids {
			if id != "" {
				res.accepted++
			}
		}
		if err == nil {
			res.statuses, err = drain(ctx, srv, ids, cfg.drainLimit, func() {
				if rss, _, e := srv.procStatus(); e == nil {
					res.sampleMax = max(res.sampleMax, rss)
				}
			})
		}
		res.drain = time.Since(start)
		_, res.hwmKiB, _ = srv.procStatus()
		res.modelReqs = len(fake.ModelRequests())
		srv.stop()
		_ = fake.Close()
		if err != nil {
			return err
		}
		lost += cfg.asyncN - res.statuses["completed"]
		drains = append(drains, ms(res.drain))
		hwms = append(hwms, kib2mib(res.hwmKiB))
		fmt.Printf("| %d | %d | %s | %d | %.0f | %.0f | %.1f | %.1f |\n", r+1, res.accepted, statusString(res.statuses),
			res.modelReqs, ms(res.submit), ms(res.drain), kib2mib(res.startKiB), kib2mib(res.hwmKiB))
	}
	fmt.Printf("\nmedian drain %.0f ms, median peak RSS %.1f MiB, runs not completed: %d (goal 0)\n\n",
		quantile(drains, .5), quantile(hwms, .5), lost)
	if lost > 0 {
		return fmt.Errorf("%d async runs did not complete", lost)
	}
	return nil
}

func idleLeg(ctx context.Context, cfg config) error {
	fmt.Printf("### Idle runs: N async runs held by a model that sends nothing for an hour; readings %v after each step\n\n", cfg.settle)
	fmt.Println("| round | N | held: RSS (MiB) | held: heap (MiB) | held: live heap (MiB) | held: goroutines | per run RSS (KiB) | per run live heap (KiB) | after cancel: RSS (MiB) | after: heap (MiB) | after: live heap (MiB) | after: goroutines |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for r := range cfg.rounds {
		total := 0
		for _, n := range cfg.idleNs {
			total += n
		}
		fake, err := fakemodel.Start(repeat(chatTurn(time.Hour), total), fakemodel.WithAddr("127.0.0.1:0"))
		if err != nil {
			return err
		}
		srv, err := startServe(ctx, cfg.bin, fake.URL(), cfg.root)
		if err != nil {
			_ = fake.Close()
			return err
		}
		err = idleRound(ctx, cfg, r, srv, fake)
		srv.stop()
		_ = fake.Close()
		if err != nil {
			return err
		}
	}
	fmt.Println()
	return nil
}

type reading struct {
	rssKiB     int64
	heap, gors float64
	// live is the live heap marked by a collection that ran after the step: heap
	// counts garbage too, which says nothing about a leak.
	live float64
}

// read takes the readings settle after a step, once a collection has run since the
// step (Go forces one every two minutes on an idle server) or gcWait has passed.
func read(ctx context.Context, srv *serveProc, settle, gcWait time.Duration) (reading, error) {
	m0, err := srv.metrics(ctx)
	if err != nil {
		return reading{}, err
	}
	time.Sleep(settle)
	m, err := srv.metrics(ctx)
	for deadline := time.Now().Add(gcWait); err == nil && m["go_gc_cycles_total"] <= m0["go_gc_cycles_total"] && time.Now().Before(deadline); {
		time.Sleep(time.Second)
		m, err = srv.metrics(ctx)
	}
	if err != nil {
		return reading{}, err
	}
	live := m["go_gc_heap_live_bytes"]
	if m["go_gc_cycles_total"] <= m0["go_gc_cycles_total"] {
		live = math.NaN() // no collection since the step: the live figure is stale
	}
	rss, _, err := srv.procStatus()
	if err != nil {
		return reading{}, err
	}
	return reading{rssKiB: rss, heap: m["go_memstats_heap_alloc_bytes"], gors: m["go_goroutines"], live: live}, nil
}

func idleRound(ctx context.Context, cfg config, r int, srv *serveProc, fake *fakemodel.Server) error {
	// A server at rest may never have collected (Go forces a collection only two
	// minutes after the last one): its whole heap is the baseline then.
	base, err := read(ctx, srv, cfg.settle, 0)
	if err != nil {
		return err
	}
	if math.IsNaN(base.live) {
		base.live = base.heap
	}
	seen := 0
	for step, n := range cfg.idleNs {
		if n == 0 {
			fmt.Printf("| %d | 0 | %.1f | %.1f | %.1f | %.0f | | | | | | |\n", r+1, kib2mib(base.rssKiB), base.heap/(1<<20), base.live/(1<<20), base.gors)
			continue
		}
		ids, err := submit(ctx, srv, n, fmt.Sprintf("i%d-%d", r, step))
		if err != nil {
			return err
		}
		// Every run must be waiting on the model, not queued somewhere before it.
		seen += n
		deadline := time.Now().Add(time.Minute)
		for len(fake.ModelRequests()) < seen {
			if time.Now().After(deadline) {
				return fmt.Errorf("only %d of %d runs reached the model", len(fake.ModelRequests()), seen)
			}
			time.Sleep(20 * time.Millisecond)
		}
		held, err := read(ctx, srv, cfg.settle, cfg.gcWait)
		if err != nil {
			return err
		}
		for _, id := range ids {
			code, out, err := srv.call(ctx, "DELETE", "/run/"+id, nil)
			if err != nil {
				return err
			}
			if code != 200 {
				return fmt.Errorf("DELETE /run/%s: %d %v", id, code, out)
			}
		}
		statuses, err := drain(ctx, srv, ids, cfg.drainLimit, func() {})
		if err != nil {
			return err
		}
		if statuses["cancelled"] != n {
			return fmt.Errorf("after DELETE: %v", statuses)
		}
		apiClient.CloseIdleConnections() // our keep-alive connections are not the server's leak
		after, err := read(ctx, srv, cfg.settle, cfg.gcWait)
		if err != nil {
			return err
		}
		fmt.Printf("| %d | %d | %.1f | %.1f | %.1f | %.0f | %.0f | %.0f | %.1f | %.1f | %.1f | %.0f |\n", r+1, n,
			kib2mib(held.rssKiB), held.heap/(1<<20), held.live/(1<<20), held.gors,
			float64(held.rssKiB-base.rssKiB)/float64(n), (held.live-base.live)/1024/float64(n),
			kib2mib(after.rssKiB), after.heap/(1<<20), after.live/(1<<20), after.gors)
	}
	return nil
}

func statusString(m map[string]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

func kib2mib(k int64) float64 { return float64(k) / 1024 }

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// quantile returns the nearest-rank q-quantile of xs (0 < q <= 1).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(rank, len(s)-1))]
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
