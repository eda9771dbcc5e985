// Package metrics is a small Prometheus client: counters, gauges and histograms
// with labels, written in the text exposition format 0.0.4. It replaces
// github.com/prometheus/client_golang, whose package initialisers (and those of
// its protobuf and procfs dependencies) cost every albert-code start milliseconds.
package metrics

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// ContentType is the media type of the text exposition format 0.0.4.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

var (
	nameRE  = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
	labelRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
)

// Registry holds metric families and writes them, sorted by name. It is safe for
// concurrent use.
type Registry struct {
	mu       sync.Mutex
	families map[string]*family
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{families: map[string]*family{}} }

type kind string

const (
	counterKind   kind = "counter"
	gaugeKind     kind = "gauge"
	histogramKind kind = "histogram"
)

// family is one metric name: its HELP, TYPE, label names and series.
type family struct {
	name, help string
	kind       kind
	labels     []string  // as declared: the order of label values
	buckets    []float64 // histograms
	fn         func() float64

	mu     sync.RWMutex
	series map[string]*series // by label values joined with \xff
}

type series struct {
	values []string
	bits   atomic.Uint64 // counter and gauge: a float64

	mu      sync.Mutex // histogram
	counts  []uint64   // per bucket, not cumulative
	sum     float64
	samples uint64
}

func (r *Registry) register(f *family) {
	if !nameRE.MatchString(f.name) {
		panic(fmt.Sprintf("metrics: invalid metric name %q", f.name))
	}
	seen := map[string]bool{}
	for _, l := range f.labels {
		if !labelRE.MatchString(l) || strings.HasPrefix(l, "__") || seen[l] || f.kind == histogramKind && l == "le" {
			panic(fmt.Sprintf("metrics: invalid label name %q for %s", l, f.name))
		}
		seen[l] = true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.families[f.name]; dup {
		panic(fmt.Sprintf("metrics: %s registered twice", f.name))
	}
	f.series = map[string]*series{}
	if len(f.labels) == 0 && f.fn == nil {
		f.get(nil) // an unlabelled metric shows from the start, at 0
	}
	r.families[f.name] = f
}

// get returns the series of the label values, created on first use.
func (f *family) get(values []string) *series {
	if len(values) != len(f.labels) {
		panic(fmt.Sprintf("metrics: %s takes %d label values (%s), got %d", f.name, len(f.labels), strings.Join(f.labels, ", "), len(values)))
	}
	key := strings.Join(values, "\xff")
	f.mu.RLock()
	s := f.series[key]
	f.mu.RUnlock()
	if s != nil {
		return s
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if s = f.series[key]; s == nil {
		s = &series{values: slices.Clone(values)}
		if f.kind == histogramKind {
			s.counts = make([]uint64, len(f.buckets))
		}
		f.series[key] = s
	}
	return s
}

// Counter is a value that only goes up.
type Counter struct{ s *series }

// Inc adds 1.
func (c Counter) Inc() { c.Add(1) }

// Add adds v, which must not be negative.
func (c Counter) Add(v float64) {
	if v < 0 {
		panic("metrics: a counter cannot decrease")
	}
	addFloat(&c.s.bits, v)
}

// Gauge is a value that goes up and down.
type Gauge struct{ s *series }

// Set sets the value.
func (g Gauge) Set(v float64) { g.s.bits.Store(math.Float64bits(v)) }

// Add adds v (negative to subtract).
func (g Gauge) Add(v float64) { addFloat(&g.s.bits, v) }

// Inc adds 1.
func (g Gauge) Inc() { g.Add(1) }

// Dec subtracts 1.
func (g Gauge) Dec() { g.Add(-1) }

func addFloat(bits *atomic.Uint64, v float64) {
	for {
		old := bits.Load()
		if bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// Histogram counts observations in buckets.
type Histogram struct {
	f *family
	s *series
}

// Observe records v.
func (h Histogram) Observe(v float64) {
	i := sort.SearchFloat64s(h.f.buckets, v) // the first bucket with v <= its bound
	h.s.mu.Lock()
	if i < len(h.s.counts) {
		h.s.counts[i]++
	}
	h.s.sum += v
	h.s.samples++
	h.s.mu.Unlock()
}

// CounterVec is a counter family; With picks a series by label values.
type CounterVec struct{ f *family }

// With returns the counter of the label values, in the order the labels were declared.
func (v CounterVec) With(values ...string) Counter { return Counter{v.f.get(values)} }

// GaugeVec is a gauge family.
type GaugeVec struct{ f *family }

// With returns the gauge of the label values.
func (v GaugeVec) With(values ...string) Gauge { return Gauge{v.f.get(values)} }

// HistogramVec is a histogram family.
type HistogramVec struct{ f *family }

// With returns the histogram of the label values.
func (v HistogramVec) With(values ...string) Histogram {
	return Histogram{f: v.f, s: v.f.get(values)}
}

// Counter registers a counter family. It panics on an invalid or duplicate name,
// as registration happens at start-up.
func (r *Registry) Counter(name, help string, labels ...string) CounterVec {
	f := &family{name: name, help: help, kind: counterKind, labels: labels}
	r.register(f)
	return CounterVec{f}
}

// Gauge registers a gauge family.
func (r *Registry) Gauge(name, help string, labels ...string) GaugeVec {
	f := &family{name: name, help: help, kind: gaugeKind, labels: labels}
	r.register(f)
	return GaugeVec{f}
}

// GaugeFunc registers an unlabelled gauge whose value fn gives at each scrape.
func (r *Registry) GaugeFunc(name, help string, fn func() float64) {
	r.register(&family{name: name, help: help, kind: gaugeKind, fn: fn})
}

// CounterFunc registers an unlabelled counter whose value fn gives at each scrape.
func (r *Registry) CounterFunc(name, help string, fn func() float64) {
	r.register(&family{name: name, help: help, kind: counterKind, fn: fn})
}

// Histogram registers a histogram family with the given upper bounds, sorted and
// without +Inf (always added).
func (r *Registry) Histogram(name, help string, buckets []float64, labels ...string) HistogramVec {
	b := slices.Clone(buckets)
	slices.Sort(b)
	b = slices.Compact(b)
	if n := len(b); n > 0 && math.IsInf(b[n-1], 1) {
		b = b[:n-1]
	}
	f := &family{name: name, help: help, kind: histogramKind, labels: labels, buckets: b}
	r.register(f)
	return HistogramVec{f}
}

// ServeHTTP writes the metrics in the text format.
func (r *Registry) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", ContentType)
	_ = r.Write(w)
}

// Write writes every family, sorted by name, each with its HELP and TYPE lines and
// its series sorted by label values. A family with labels and no series yet is left
// out, as client_golang does.
func (r *Registry) Write(w io.Writer) error {
	r.mu.Lock()
	fams := make([]*family, 0, len(r.families))
	for _, f := range r.families {
		fams = append(fams, f)
	}
	r.mu.Unlock()
	slices.SortFunc(fams, func(a, b *family) int { return strings.Compare(a.name, b.name) })
	bw := bufio.NewWriter(w)
	for _, f := range fams {
		f.write(bw)
	}
	return bw.Flush()
}

func (f *family) write(w *bufio.Writer) {
	if f.fn != nil {
		f.header(w)
		writeSample(w, f.name, nil, nil, "", "", f.fn())
		return
	}
	f.mu.RLock()
	ss := make([]*series, 0, len(f.series))
	for _, s := range f.series {
		ss = append(ss, s)
	}
	f.mu.RUnlock()
	if len(ss) == 0 {
		return
	}
	slices.SortFunc(ss, func(a, b *series) int { return slices.Compare(a.values, b.values) })
	f.header(w)
	// Label pairs are written sorted by name, as client_golang does.
	order := make([]int, len(f.labels))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(f.labels[a], f.labels[b]) })
	names := make([]string, len(order))
	for i, o := range order {
		names[i] = f.labels[o]
	}
	values := make([]string, len(order))
	for _, s := range ss {
		for i, o := range order {
			values[i] = s.values[o]
		}
		if f.kind != histogramKind {
			writeSample(w, f.name, names, values, "", "", math.Float64frombits(s.bits.Load()))
			continue
		}
		s.mu.Lock()
		counts, sum, n := slices.Clone(s.counts), s.sum, s.samples
		s.mu.Unlock()
		var cum uint64
		for i, b := range f.buckets {
			cum += counts[i]
			writeSample(w, f.name+"_bucket", names, values, "le", formatFloat(b), float64(cum))
		}
		writeSample(w, f.name+"_bucket", names, values, "le", "+Inf", float64(n))
		writeSample(w, f.name+"_sum", names, values, "", "", sum)
		writeSample(w, f.name+"_count", names, values, "", "", float64(n))
	}
}

func (f *family) header(w *bufio.Writer) {
	if f.help != "" {
		fmt.Fprintf(w, "# HELP %s %s\n", f.name, escapeHelp(f.help))
	}
	fmt.Fprintf(w, "# TYPE %s %s\n", f.name, f.kind)
}

func writeSample(w *bufio.Writer, name string, labels, values []string, extraLabel, extraValue string, v float64) {
	w.WriteString(name)
	if len(labels) > 0 || extraLabel != "" {
		w.WriteByte('{')
		for i, l := range labels {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString(l)
			w.WriteString(`="`)
			w.WriteString(escapeLabel(values[i]))
			w.WriteByte('"')
		}
		if extraLabel != "" {
			if len(labels) > 0 {
				w.WriteByte(',')
			}
			w.WriteString(extraLabel + `="` + extraValue + `"`)
		}
		w.WriteByte('}')
	}
	w.WriteByte(' ')
	w.WriteString(formatFloat(v))
	w.WriteByte('\n')
}

// formatFloat spells a value as the format wants: Go's shortest form, and +Inf,
// -Inf, NaN.
func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// HELP text escapes backslash and newline; label values also the double quote.
var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeLabel(s string) string { return labelEscaper.Replace(s) }
