package builtin

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func fetchServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>T</title><script>alert(1)</script></head><body>
<h1>Release notes</h1><p>Some <strong>bold</strong> text and <a href="/docs">the docs</a>.</p>
<ul><li>one</li><li>two</li></ul></body></html>`)
	})
	mux.HandleFunc("GET /plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "just <text>\n")
	})
	mux.HandleFunc("GET /json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"a":1}`)
	})
	mux.HandleFunc("GET /big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("x", 10000))
	})
	mux.HandleFunc("GET /image", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
	})
	mux.HandleFunc("GET /missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such page", http.StatusNotFound)
	})
	mux.HandleFunc("GET /redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/plain", http.StatusFound)
	})
	mux.HandleFunc("GET /ua", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, r.UserAgent())
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestWebFetch(t *testing.T) {
	t.Parallel()
	srv := fetchServer(t)
	fetch := WebFetch(Env{AllowPrivateNetwork: true, FetchOutputBytes: 3000})
	tests := []struct {
		name      string
		p         WebFetchParams
		wantErr   bool
		want      []string
		notWant   []string
		truncated bool
	}{
		{name: "HTML to Markdown", p: WebFetchParams{URL: srv.URL + "/page"},
			want:    []string{"# Release notes", "**bold**", "[the docs](" + srv.URL + "/docs)", "- one\n- two", "Content-Type: text/html"},
			notWant: []string{"alert(1)", "<strong>"}},
		{name: "text passes through", p: WebFetchParams{URL: srv.URL + "/plain"}, want: []string{"\n\njust <text>\n"}},
		{name: "JSON passes through", p: WebFetchParams{URL: srv.URL + "/json"}, want: []string{`{"a":1}`}},
		{name: "redirect followed", p: WebFetchParams{URL: srv.URL + "/redirect"}, want: []string{"URL: " + srv.URL + "/plain", "just <text>"}},
		{name: "binary described", p: WebFetchParams{URL: srv.URL + "/image"}, want: []string{"(image/png content, 10 bytes: not text, not shown)"}},
		{name: "download cap", p: WebFetchParams{URL: srv.URL + "/big", MaxBytes: 100}, want: []string{"[download stopped at 100 bytes]"}, truncated: true},
		{name: "output cap", p: WebFetchParams{URL: srv.URL + "/big"}, want: []string{"bytes truncated"}, truncated: true},
		{name: "user agent", p: WebFetchParams{URL: srv.URL + "/ua"}, want: []string{"albert-code/"}},
		{name: "HTTP error", p: WebFetchParams{URL: srv.URL + "/missing"}, wantErr: true, want: []string{"the server answered 404 Not Found", "no such page"}},
		{name: "bad scheme", p: WebFetchParams{URL: "ftp://example.com/x"}, wantErr: true, want: []string{"only http and https"}},
		{name: "scheme added", p: WebFetchParams{URL: strings.TrimPrefix(srv.URL, "http://") + "/plain"}, wantErr: true, want: []string{"could not fetch https://127.0.0.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, fetch, tt.p)
			if res.IsError != tt.wantErr || res.Truncated != tt.truncated {
				t.Fatalf("IsError=%v Truncated=%v: %s", res.IsError, res.Truncated, res.Output)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Output, w) {
					t.Errorf("output does not contain %q:\n%s", w, res.Output)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(res.Output, w) {
					t.Errorf("output contains %q:\n%s", w, res.Output)
				}
			}
		})
	}
}

// TestWebFetchRefusesPrivateAddressesByDefault dials the same local server with the
// default Env: the connection is refused before any byte is sent, by IP literal and
// by a name that resolves to loopback.
func TestWebFetchRefusesPrivateAddressesByDefault(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	for _, u := range []string{srv.URL + "/x", "http://localhost" + port + "/x"} {
		res := run(t, WebFetch(Env{}), WebFetchParams{URL: u})
		wantError(t, res, "refused to fetch")
		if !strings.Contains(res.Output, "loopback address") {
			t.Errorf("the refusal does not say why: %s", res.Output)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the server was reached %d times", n)
	}
}

func TestGuardRefusesEveryAddressButPublicOnes(t *testing.T) {
	t.Parallel()
	g := netGuard{ownAddrs: func() ([]net.Addr, error) { return nil, nil }}
	tests := map[string]string{
		"127.0.0.1:80":            "loopback",
		"[::1]:80":                "loopback",
		"[::ffff:127.0.0.1]:80":   "loopback",
		"[::ffff:10.0.0.1]:80":    "private",
		"10.1.2.3:80":             "private",
		"192.168.0.1:443":         "private",
		"172.16.5.5:443":          "private",
		"[fd00::1]:443":           "private",
		"100.64.0.1:443":          "carrier-grade NAT",
		"100.127.255.254:443":     "carrier-grade NAT",
		"198.18.0.1:80":           "benchmarking",
		"198.19.255.1:80":         "benchmarking",
		"169.254.169.254:80":      "link-local",
		"[fe80::1%eth0]:80":       "link-local",
		"0.0.0.0:80":              "unspecified",
		"0.1.2.3:80":              "this-network",
		"[::]:80":                 "unspecified",
		"239.1.1.1:80":            "multicast",
		"224.0.0.1:80":            "link-local",
		"255.255.255.255:80":      "broadcast",
		"192.0.2.2:80":            "documentation",
		"240.0.0.1:80":            "reserved",
		"[64:ff9b::a00:1]:80":     "NAT64-mapped private",
		"[64:ff9b::7f00:1]:80":    "NAT64-mapped loopback",
		"[64:ff9b::a9fe:a9fe]:80": "NAT64-mapped link-local",
		"[2002:c0a8:0101::1]:80":  "6to4-mapped private",
		"[2002:7f00:1::]:80":      "6to4-mapped loopback",
		"[::7f00:1]:80":           "IPv4-compatible",
		"[64:ff9b:1::1]:80":       "local NAT64",
		"8.8.8.8:443":             "",
		"[2001:4860::8888]:443":   "",
		"1.1.1.1:80":              "",
		"[64:ff9b::808:808]:443":  "", // NAT64 of 8.8.8.8
		"[2002:808:808::1]:443":   "", // 6to4 of 8.8.8.8
		"[::ffff:8.8.8.8]:443":    "",
	}
	for addr, kind := range tests {
		err := g.control("tcp", addr, nil)
		switch {
		case kind == "" && err != nil:
			t.Errorf("%s refused: %v", addr, err)
		case kind != "" && (err == nil || !strings.Contains(err.Error(), kind) || !strings.Contains(err.Error(), "web_fetch.allow_private")):
			t.Errorf("%s: err = %v, want a %s refusal naming the setting", addr, err, kind)
		}
	}
}

// An address the ranges let through is still refused when one of the machine's
// interfaces holds it (a public address bound on the host), also behind NAT64 or
// 6to4; and a failure to list the interfaces refuses rather than guesses.
func TestGuardRefusesTheMachinesOwnAddresses(t *testing.T) {
	t.Parallel()
	own := []net.Addr{&net.IPNet{IP: net.ParseIP("8.8.4.4"), Mask: net.CIDRMask(24, 32)}, &net.IPAddr{IP: net.ParseIP("2001:4860::1")}}
	g := netGuard{ownAddrs: func() ([]net.Addr, error) { return own, nil }}
	for _, addr := range []string{"8.8.4.4:443", "[::ffff:8.8.4.4]:443", "[64:ff9b::808:404]:443", "[2002:808:404::1]:443", "[2001:4860::1]:443"} {
		if err := g.control("tcp", addr, nil); err == nil || !strings.Contains(err.Error(), "this machine's own interfaces") {
			t.Errorf("%s: %v", addr, err)
		}
	}
	if err := g.control("tcp", "8.8.8.8:443", nil); err != nil {
		t.Errorf("a neighbour of the machine's address: %v", err)
	}
	broken := netGuard{ownAddrs: func() ([]net.Addr, error) { return nil, errors.New("no netlink") }}
	if err := broken.control("tcp", "8.8.8.8:443", nil); err == nil || !strings.Contains(err.Error(), "no netlink") {
		t.Errorf("interfaces unreadable: %v", err)
	}
}

// Through the real dialer: every address of this machine's interfaces is refused
// before the connection is attempted, whatever range it lies in.
func TestFetchDialerRefusesThisMachinesInterfaces(t *testing.T) {
	t.Parallel()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	dialer := &net.Dialer{Timeout: time.Second, Control: netGuard{ownAddrs: net.InterfaceAddrs}.control}
	checked := 0
	for _, a := range addrs {
		ip, ok := interfaceIP(a)
		if !ok {
			continue
		}
		target := netip.AddrPortFrom(ip, 9).String() // discard port: nothing is sent anyway
		if ip.Is6() && ip.IsLinkLocalUnicast() {
			continue // needs a zone to dial; the ranges refuse it above
		}
		conn, err := dialer.DialContext(t.Context(), "tcp", target)
		if err == nil {
			conn.Close()
			t.Errorf("%s (an interface address) was dialled", target)
			continue
		}
		var refused *refusedAddress
		if !errors.As(err, &refused) {
			t.Errorf("%s: %v, want a refusal by the guard", target, err)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no interface address to check")
	}
}

// The tool's refusal names the setting that would allow the address.
func TestWebFetchRefusalNamesTheSetting(t *testing.T) {
	t.Parallel()
	res := run(t, WebFetch(Env{}), WebFetchParams{URL: "http://localhost:9/x"})
	wantError(t, res, "refused to fetch")
	if !strings.Contains(res.Output, "web_fetch.allow_private = true") {
		t.Errorf("the refusal does not say what would allow it: %s", res.Output)
	}
}
