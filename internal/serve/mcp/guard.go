package mcp

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// The original's defaults (aicodebox v0.16.1, the MCP SDK's transport security):
// loopback hosts and origins on any port. A server reached by another name, behind a
// proxy or in a container, lists that name.
var (
	defaultHosts   = []string{"127.0.0.1:*", "localhost:*", "[::1]:*"}
	defaultOrigins = []string{"http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"}
)

// guard refuses, before anything else reads the request, a foreign Host (421) or
// Origin (403), the DNS-rebinding defence, then a request without one of the MCP
// server's own tokens (401).
type guard struct {
	hosts, origins []string
	sums           [][sha256.Size]byte
}

func newGuard(tokens, hosts, origins []string) *guard {
	g := &guard{hosts: hosts, origins: origins}
	if len(g.hosts) == 0 {
		g.hosts = defaultHosts
	}
	if len(g.origins) == 0 {
		g.origins = defaultOrigins
	}
	for _, t := range tokens {
		g.sums = append(g.sums, sha256.Sum256([]byte(t)))
	}
	return g
}

func (g *guard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.hostAllowed(r.Host) {
			refuse(w, http.StatusMisdirectedRequest, "Host "+quote(r.Host)+" is not allowed: add it to ALBERT_CODE_MCP_MODE_ALLOWED_HOSTS")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !g.originAllowed(o) {
			refuse(w, http.StatusForbidden, "Origin "+quote(o)+" is not allowed: add it to ALBERT_CODE_MCP_MODE_ALLOWED_ORIGINS")
			return
		}
		if msg, ok := g.authorized(r); !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="albert-code-mcp", error="invalid_token"`)
			refuse(w, http.StatusUnauthorized, msg)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authorized checks the bearer token, or the apiToken query parameter for clients
// that cannot set headers, in constant time: every token is compared through its
// SHA-256, whatever matched.
func (g *guard) authorized(r *http.Request) (string, bool) {
	if len(g.sums) == 0 {
		return "", true
	}
	var token string
	if h := strings.TrimSpace(r.Header.Get("Authorization")); h != "" {
		scheme, t, _ := strings.Cut(h, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return "the Authorization header is not a bearer token: send Authorization: Bearer <token>", false
		}
		token = strings.TrimSpace(t)
	} else if q := r.URL.Query(); q.Has("apiToken") {
		token = q.Get("apiToken")
	} else {
		return "missing token: send Authorization: Bearer <token> or ?apiToken=<token> (the MCP server's token, not the API's)", false
	}
	sum := sha256.Sum256([]byte(token))
	ok := 0
	for i := range g.sums {
		ok |= subtle.ConstantTimeCompare(sum[:], g.sums[i][:])
	}
	if ok != 1 {
		return "invalid token: the MCP server has tokens of its own (ALBERT_CODE_MCP_MODE_TOKEN); the API's are refused", false
	}
	return "", true
}

// hostAllowed matches host against the list: "*" allows any, "name" a name on any
// port or none, "name:port" exactly, "name:*" the name on any port.
func (g *guard) hostAllowed(host string) bool {
	name, port := splitHost(host)
	for _, a := range g.hosts {
		if a == "*" {
			return true
		}
		an, ap := splitHost(a)
		if !strings.EqualFold(an, name) {
			continue
		}
		if ap == "" || ap == "*" || ap == port {
			return true
		}
	}
	return false
}

// originAllowed matches an Origin (scheme://host[:port]) against the list, with the
// same port rules as hosts; the scheme must match too.
func (g *guard) originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	name, port := splitHost(u.Host)
	for _, a := range g.origins {
		if a == "*" {
			return true
		}
		au, err := url.Parse(strings.Replace(a, ":*", ":0", 1))
		if err != nil || !strings.EqualFold(au.Scheme, u.Scheme) {
			continue
		}
		an, ap := splitHost(au.Host)
		if strings.HasSuffix(a, ":*") {
			ap = "*"
		}
		if !strings.EqualFold(an, name) {
			continue
		}
		if ap == "*" || ap == port || (ap == "" && port == "") {
			return true
		}
	}
	return false
}

// splitHost splits "name:port", "[v6]:port", "name" or "[v6]" into the name
// (brackets kept off) and the port, which may be empty.
func splitHost(hp string) (name, port string) {
	if h, p, err := net.SplitHostPort(hp); err == nil {
		return h, p
	}
	return strings.TrimSuffix(strings.TrimPrefix(hp, "["), "]"), ""
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func refuse(w http.ResponseWriter, status int, detail string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"detail": detail})
}
