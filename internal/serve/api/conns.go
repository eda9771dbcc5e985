package api

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"sync"
	"time"
)

// Connection limits of the HTTP server, against a client that holds connections
// open: idle keep-alives by the thousand, or a body sent a byte a minute.
const (
	// DefaultReadHeaderTimeout: headers arrive in well under 10 s from any honest
	// client (judgement).
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultKeepAliveTimeout closes a connection idle between requests; judgement:
	// a client polling /run/result every few seconds keeps its connection, one that
	// went quiet frees its file descriptor within a minute.
	DefaultKeepAliveTimeout = time.Minute
	// DefaultBodyTimeout bounds the time to receive a request body: the default
	// 10 MiB body at 1 Mbit/s takes 84 s, so two minutes leave room (judgement).
	DefaultBodyTimeout = 2 * time.Minute
	// DefaultMaxConnsPerClient caps the connections open at once from one address;
	// judgement: browsers open six per host, a busy script a few dozen, while the
	// open-files limit (often 1024) is far above.
	DefaultMaxConnsPerClient = 64
)

// ConnLimits configure NewHTTPServer; a zero field takes its default, except
// MaxConnsPerClient whose negative value means no cap.
type ConnLimits struct {
	ReadHeaderTimeout time.Duration
	KeepAliveTimeout  time.Duration
	BodyTimeout       time.Duration
	MaxConnsPerClient int
	Logger            *slog.Logger
}

func (l ConnLimits) withDefaults() ConnLimits {
	if l.ReadHeaderTimeout <= 0 {
		l.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if l.KeepAliveTimeout <= 0 {
		l.KeepAliveTimeout = DefaultKeepAliveTimeout
	}
	if l.BodyTimeout <= 0 {
		l.BodyTimeout = DefaultBodyTimeout
	}
	if l.MaxConnsPerClient == 0 {
		l.MaxConnsPerClient = DefaultMaxConnsPerClient
	}
	if l.Logger == nil {
		l.Logger = slog.New(slog.DiscardHandler)
	}
	return l
}

// NewHTTPServer returns a server for h with the limits set, and ln wrapped so that
// one client address holds at most lim.MaxConnsPerClient connections: past it a
// new connection is closed at once. There is no ReadTimeout or WriteTimeout: a run
// streams its answer for as long as it lasts.
func NewHTTPServer(h http.Handler, ln net.Listener, lim ConnLimits) (*http.Server, net.Listener) {
	lim = lim.withDefaults()
	hs := &http.Server{
		Handler:           withBodyTimeout(h, lim.BodyTimeout),
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		IdleTimeout:       lim.KeepAliveTimeout,
		ErrorLog:          slog.NewLogLogger(lim.Logger.Handler(), slog.LevelWarn),
	}
	if lim.MaxConnsPerClient > 0 {
		ln = &clientCap{Listener: ln, max: lim.MaxConnsPerClient, live: map[netip.Addr]int{}, logger: lim.Logger}
	}
	return hs, ln
}

// BodyTimeoutError is a request body not received in time.
type BodyTimeoutError struct{ Limit time.Duration }

func (e *BodyTimeoutError) Error() string {
	return fmt.Sprintf("the request body was not received within %s (ALBERT_CODE_API_MODE_BODY_TIMEOUT): send it faster, or raise the limit", e.Limit)
}

// withBodyTimeout gives a request's body d to arrive. The deadline is on the
// connection's reads and is lifted once the body is read or closed, so an answer
// that streams for an hour is not cut; a request without a body gets none, since
// the server's own read that watches for a client leaving would trip it.
func withBodyTimeout(next http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if err := rc.SetReadDeadline(time.Now().Add(d)); err != nil {
			next.ServeHTTP(w, r) // not a connection that takes deadlines (a test recorder)
			return
		}
		r.Body = &deadlineBody{ReadCloser: r.Body, limit: d, lift: sync.OnceFunc(func() { _ = rc.SetReadDeadline(time.Time{}) })}
		next.ServeHTTP(w, r)
	})
}

type deadlineBody struct {
	io.ReadCloser
	limit time.Duration
	lift  func()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF:
		b.lift()
	case errors.Is(err, os.ErrDeadlineExceeded):
		err = &BodyTimeoutError{Limit: b.limit}
	}
	return n, err
}

func (b *deadlineBody) Close() error {
	b.lift()
	return b.ReadCloser.Close()
}

// clientCap is a listener that counts the live connections of each client address.
type clientCap struct {
	net.Listener
	max    int
	logger *slog.Logger

	mu     sync.Mutex
	live   map[netip.Addr]int
	warned map[netip.Addr]bool
}

func (l *clientCap) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := clientAddr(c.RemoteAddr())
		l.mu.Lock()
		if l.live[ip] >= l.max {
			first := !l.warned[ip]
			if l.warned == nil {
				l.warned = map[netip.Addr]bool{}
			}
			l.warned[ip] = true
			l.mu.Unlock()
			c.Close()
			if first { // once per burst: a flood must not flood the log too
				l.logger.Warn("a client reached the connection cap: its new connections are closed",
					"client", ip, "cap", l.max, "setting", "ALBERT_CODE_API_MODE_MAX_CONNS_PER_CLIENT")
			}
			continue
		}
		l.live[ip]++
		l.mu.Unlock()
		return &countedConn{Conn: c, release: sync.OnceFunc(func() { l.release(ip) })}, nil
	}
}

func (l *clientCap) release(ip netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.live[ip]--; l.live[ip] <= 0 {
		delete(l.live, ip)
	}
	if l.live[ip] < l.max {
		delete(l.warned, ip)
	}
}

// clientAddr is the address connections are counted by; IPv4-mapped IPv6 counts
// as the IPv4 address it maps.
func clientAddr(a net.Addr) netip.Addr {
	if ap, err := netip.ParseAddrPort(a.String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{} // not TCP: all such connections share one count
}

type countedConn struct {
	net.Conn
	release func()
}

func (c *countedConn) Close() error {
	c.release()
	return c.Conn.Close()
}
