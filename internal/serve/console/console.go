// Package console is serve's web console at /ui: the runs (live, with their
// events streamed), the cron jobs and their history, the rate-limit and quota
// gauges, and the workspace files. Pages are rendered on the server with
// html/template from files embedded in the binary; a little JavaScript, served
// as files, streams events and refreshes tables. It shares the API's tokens,
// exchanged on a login page for a session cookie.
package console

import (
	"embed"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets/*
var assetFS embed.FS

// DefaultSessionTTL is how long a login lasts. Judgement: a working day, so an
// operator logs in once a day and a forgotten tab does not stay open for ever.
const DefaultSessionTTL = 12 * time.Hour

// Cron is what the console reads of the scheduler.
type Cron interface {
	Jobs() []cron.JobState
	History(job string, limit int) ([]cron.Summary, error)
	RunLog(job string, fired time.Time, limit int64) (cron.RunLogs, error)
}

// Options configure a Console. Store, Root and Tokens are required.
type Options struct {
	Store runstore.Store
	Root  *workspace.Root
	// Tokens are the API's bearer tokens: the login page takes any of them.
	Tokens []string
	// Cancel is the API's DELETE /run/{id}, reading the path value "id".
	Cancel http.Handler
	// Cron is the scheduler; nil when cron is off.
	Cron Cron
	// Quota reads the rate-limit state of the configured models; nil when the
	// backend keeps none (a CLI agent counts its own calls).
	Quota func(now time.Time) []ratelimit.Snapshot
	// Map serves each workspace's code graph map under /ui/map/NAME/ behind the
	// login (webmap.Workspaces); nil leaves it out.
	Map http.Handler
	// SessionTTL bounds a login (0: DefaultSessionTTL).
	SessionTTL time.Duration
	// Now is the clock of sessions and durations (nil: time.Now).
	Now    func() time.Time
	Logger *slog.Logger
}

// Console serves the pages under /ui.
type Console struct {
	opts     Options
	tokens   *tokenCheck
	sessions *sessions
	pages    *pages
}

// New returns a Console.
func New(opts Options) (*Console, error) {
	switch {
	case opts.Store == nil:
		return nil, errors.New("console: no run store")
	case opts.Root == nil:
		return nil, errors.New("console: no workspace root")
	case len(opts.Tokens) == 0:
		return nil, errors.New("console: no API token: the console's login takes the API's token, so set one")
	}
	if opts.SessionTTL <= 0 {
		opts.SessionTTL = DefaultSessionTTL
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	p, err := loadPages()
	if err != nil {
		return nil, err
	}
	return &Console{opts: opts, tokens: newTokenCheck(opts.Tokens), sessions: newSessions(opts.SessionTTL, opts.Now), pages: p}, nil
}

// Mount adds the console's routes to mux, all under /ui.
func (c *Console) Mount(mux *http.ServeMux) {
	public := map[string]http.HandlerFunc{
		"GET /ui/login":         c.loginPage,
		"POST /ui/login":        c.login,
		"GET /ui/assets/{name}": c.asset,
		"GET /ui":               redirect("/ui/runs"),
		"GET /ui/{$}":           redirect("/ui/runs"),
	}
	for pattern, h := range public {
		mux.Handle(pattern, secured(h))
	}
	private := map[string]http.HandlerFunc{
		"POST /ui/logout":           c.logout,
		"GET /ui/runs":              c.runsPage,
		"GET /ui/runs/table":        c.runsTable,
		"GET /ui/runs/{id}":         c.runPage,
		"GET /ui/runs/{id}/events":  c.runEvents,
		"POST /ui/runs/{id}/cancel": c.cancelRun,
		"GET /ui/cron":              c.cronPage,
		"GET /ui/cron/{job}":        c.cronJobPage,
		"GET /ui/cron/{job}/log":    c.cronLogPage,
		"GET /ui/quota":             c.quotaPage,
		"GET /ui/quota/gauges":      c.quotaGauges,
		"GET /ui/files/{path...}":   c.filesPage,
		"/ui/{rest...}":             c.notFound,
	}
	for pattern, h := range private {
		mux.Handle(pattern, secured(c.authorize(h)))
	}
	if c.opts.Map != nil {
		mux.Handle("GET /ui/map/", secured(c.authorize(http.StripPrefix("/ui/map", c.opts.Map).ServeHTTP)))
	}
}

func redirect(to string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusSeeOther) }
}

// securityHeaders are on every answer of the console: scripts and styles only
// from our own files (no inline script can run, even one smuggled into a page),
// no framing (clickjacking), no sniffing, no referrer leaving the site (same-origin,
// not no-referrer: under no-referrer Chromium sends a form post's Origin as "null").
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
		"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
	"X-Frame-Options":        "DENY",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy":        "same-origin",
	"Cache-Control":          "no-store",
}

func secured(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		h.ServeHTTP(w, r)
	})
}
