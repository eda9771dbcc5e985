package api

import (
	"net/http"
	"strconv"
	"time"

	prom "github.com/etalab-ia/albert-code/internal/serve/metrics"
)

// metrics are the API's Prometheus metrics, in a registry of its own so tests and
// several servers in one process do not collide.
type metrics struct {
	reg      *prom.Registry
	backend  string
	requests prom.CounterVec
	runs     prom.CounterVec
	duration prom.HistogramVec
	tokens   prom.CounterVec
	refused  prom.Counter
}

func newMetrics(s *Server) *metrics {
	reg := prom.NewRegistry()
	m := &metrics{
		reg: reg, backend: s.opts.Backend.Name(),
		requests: reg.Counter("albert_code_http_requests_total", "HTTP requests answered, by route and status code.", "route", "code"),
		runs:     reg.Counter("albert_code_runs_total", "Runs finished, by backend and final status (completed, failed, cancelled).", "backend", "status"),
		// Buckets from a second to the default 30 min timeout: agent runs are long.
		duration: reg.Histogram("albert_code_run_duration_seconds", "Time from a run's admission to its end, queueing included.",
			[]float64{1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800}, "backend"),
		tokens:  reg.Counter("albert_code_run_tokens_total", "Tokens used by runs, summed over attempts, by direction.", "backend", "direction"),
		refused: reg.Counter("albert_code_runs_refused_queue_full_total", "Runs refused with 429 because their workspace queue was full.").With(),
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
	reg.GaugeFunc("albert_code_runs_queued", "Runs waiting for their workspace.", count("queued"))
	reg.GaugeFunc("albert_code_runs_running", "Runs running now.", count("running"))
	reg.RegisterRuntime()
	return m
}

func (m *metrics) serve(w http.ResponseWriter, r *http.Request) { m.reg.ServeHTTP(w, r) }

// observe counts a finished run.
func (m *metrics) observe(a *answer, d time.Duration) {
	if a.outcome != nil {
		u := a.outcome.Usage
		m.tokens.With(m.backend, "input").Add(float64(u.InputTokens))
		m.tokens.With(m.backend, "output").Add(float64(u.OutputTokens))
	}
	m.runs.With(m.backend, string(a.final)).Inc()
	m.duration.With(m.backend).Observe(d.Seconds())
}

// instrument counts the requests of one route by status code.
func (m *metrics) instrument(route string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		h.ServeHTTP(sw, r)
		m.requests.With(route, strconv.Itoa(sw.code)).Inc()
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
