package app

import (
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config"
)

// exportDotenvProxies puts the proxy variables of <home>/.env (where the original's
// /proxy-setup saved them) into this process's environment before anything opens a
// connection, as the original loaded its .env at start: crypto/x509 reads
// SSL_CERT_FILE and SSL_CERT_DIR on the first TLS handshake. net/http reads the
// proxy variables once, and already had by the time Main runs (measured: the
// environment's value, not the file's, answered), so the default transport, which
// every provider's client clones or uses, gets the file's proxies explicitly. An
// exported variable wins over the file, as for API keys. A .env that cannot be read
// exports nothing here; loading the configuration reports it.
func exportDotenvProxies() {
	home, err := config.HomeDir(os.LookupEnv)
	if err != nil {
		return
	}
	s, err := config.LoadSecrets(home, os.LookupEnv)
	if err != nil {
		return
	}
	fromFile := false
	for _, name := range config.ProxyVars {
		if v, from, ok := s.Lookup(name); ok && from != "env" {
			_ = os.Setenv(name, v) // fails only on a name holding '=' or NUL, which ProxyVars have not
			fromFile = fromFile || strings.HasSuffix(name, "PROXY")
		}
	}
	if t, ok := http.DefaultTransport.(*http.Transport); ok && fromFile {
		t.Proxy = proxyFor(os.Getenv("HTTP_PROXY"), os.Getenv("HTTPS_PROXY"), os.Getenv("NO_PROXY"))
	}
}

// proxyFor chooses a proxy by the request's scheme, as net/http does from the
// environment: none for loopback hosts or for a host NO_PROXY lists (a name, a
// domain suffix with or without its leading dot, or * for all).
func proxyFor(httpProxy, httpsProxy, noProxy string) func(*http.Request) (*url.URL, error) {
	return func(r *http.Request) (*url.URL, error) {
		raw := httpProxy
		if r.URL.Scheme == "https" {
			raw = httpsProxy
		}
		if raw == "" || bypassProxy(r.URL.Hostname(), noProxy) {
			return nil, nil
		}
		if !strings.Contains(raw, "://") {
			raw = "http://" + raw
		}
		return url.Parse(raw)
	}
}

func bypassProxy(host, noProxy string) bool {
	host = strings.ToLower(host)
	if host == "localhost" {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, e := range strings.Split(noProxy, ",") {
		e = strings.ToLower(strings.TrimSpace(e))
		if h, _, err := net.SplitHostPort(e); err == nil {
			e = h
		}
		switch {
		case e == "":
		case e == "*":
			return true
		case host == strings.TrimPrefix(e, "."), strings.HasSuffix(host, "."+strings.TrimPrefix(e, ".")):
			return true
		}
	}
	return false
}
