package metrics

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// RegisterRuntime adds a few Go and process metrics, named as client_golang's
// collectors name them: goroutines, threads, memory, GC cycles, start time.
func (r *Registry) RegisterRuntime() {
	start := float64(time.Now().UnixNano()) / 1e9
	r.GaugeFunc("go_goroutines", "Number of goroutines that currently exist.", func() float64 {
		return float64(runtime.NumGoroutine())
	})
	r.GaugeFunc("go_threads", "Number of OS threads created.", func() float64 {
		n, _ := runtime.ThreadCreateProfile(nil)
		return float64(n)
	})
	info := r.Gauge("go_info", "Information about the Go environment.", "version")
	info.With(runtime.Version()).Set(1)
	mem := func(pick func(*runtime.MemStats) uint64) func() float64 {
		return func() float64 {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return float64(pick(&m))
		}
	}
	r.GaugeFunc("go_memstats_heap_alloc_bytes", "Number of heap bytes allocated and currently in use.", mem(func(m *runtime.MemStats) uint64 { return m.HeapAlloc }))
	r.GaugeFunc("go_memstats_sys_bytes", "Number of bytes obtained from system.", mem(func(m *runtime.MemStats) uint64 { return m.Sys }))
	// HeapAlloc counts garbage not yet collected; the live heap as of the last GC is
	// what a leak shows in.
	r.GaugeFunc("go_gc_heap_live_bytes", "Heap memory occupied by live objects that were marked by the previous GC.", liveHeap)
	r.CounterFunc("go_gc_cycles_total", "Number of completed GC cycles.", mem(func(m *runtime.MemStats) uint64 { return uint64(m.NumGC) }))
	r.GaugeFunc("process_start_time_seconds", "Time the metrics were registered (the server's start) since unix epoch in seconds.", func() float64 { return start })
}

func liveHeap() float64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return float64(s[0].Value.Uint64())
}
