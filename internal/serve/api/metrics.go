package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the API's Prometheus metrics, in a registry of its own so tests and
// several servers in one process do not collide.
type metrics struct {
	reg      *prometheus.Registry
	backend  string
	handler  http.Handler
	requests *prometheus.CounterVec
	runs     *prometheus.CounterVec
	duration *prometheus.HistogramVec
	tokens   *prometheus.CounterVec
	refused  prometheus.Counter
}

func newMetrics(s *Server) *metrics {
	reg := prometheus.NewRegistry()
	m := &metrics{
		reg: reg, backend: s.opts.Backend.Name(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "albert_code_http_requests_total", Help: "HTTP requests answered, by route and status code.",
		}, []string{"route", "code"}),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "albert_code_runs_total", Help: "Runs finished, by backend and final status (completed, failed, cancelled).",
		}, []string{"backend", "status"}),
		// Buckets from a second to the default 30 min timeout: agent runs are long.
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "albert_code_run_duration_seconds", Help: "Time from a run's admission to its end, queueing included.",
			Buckets: []float64{1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800},
		}, []string{"backend"}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "albert_code_run_tokens_total", Help: "Tokens used by runs, summed over attempts, by direction.",
		}, []string{"backend", "direction"}),
		refused: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "albert_code_runs_refused_queue_full_total", Help: "Runs refused with 429 because their workspace queue was full.",
		}),
	}
	count := func(status string) func() float64 {
		return func() float64 {
			n := 0
			for _, r := range s.inFlight() {
				if r.Status == status {
					n++
				}
			}
			return float64(n)
		}
	}
	reg.MustRegister(m.requests, m.runs, m.duration, m.tokens, m.refused,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "albert_code_runs_queued", Help: "Runs waiting for their workspace."}, count("queued")),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "albert_code_runs_running", Help: "Runs running now."}, count("running")),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	return m
}

func (m *metrics) serve(w http.ResponseWriter, r *http.Request) { m.handler.ServeHTTP(w, r) }

// observe counts a finished run.
func (m *metrics) observe(a *answer, d time.Duration) {
	if a.outcome != nil {
		u := a.outcome.Usage
		m.tokens.WithLabelValues(m.backend, "input").Add(float64(u.InputTokens))
		m.tokens.WithLabelValues(m.backend, "output").Add(float64(u.OutputTokens))
	}
	m.runs.WithLabelValues(m.backend, string(a.final)).Inc()
	m.duration.WithLabelValues(m.backend).Observe(d.Seconds())
}

// instrument counts the requests of one route by status code.
func (m *metrics) instrument(route string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		h.ServeHTTP(sw, r)
		m.requests.WithLabelValues(route, strconv.Itoa(sw.code)).Inc()
	})
}

// statusWriter remembers the status code written.
type statusWriter struct {
	http.ResponseWriter
	code    int
	written bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.written {
		w.code, w.written = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.written = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
