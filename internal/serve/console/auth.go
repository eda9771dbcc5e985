package console

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// cookieName is the session cookie; its Path keeps it to the console's pages.
const cookieName = "albert_console"

// tokenCheck compares tokens in constant time through their SHA-256, like the
// API's bearer check, so neither length nor first differing byte shows.
type tokenCheck struct{ sums [][sha256.Size]byte }

func newTokenCheck(tokens []string) *tokenCheck {
	t := &tokenCheck{}
	for _, tok := range tokens {
		t.sums = append(t.sums, sha256.Sum256([]byte(tok)))
	}
	return t
}

func (t *tokenCheck) ok(token string) bool {
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	hit := 0
	for i := range t.sums {
		hit |= subtle.ConstantTimeCompare(sum[:], t.sums[i][:])
	}
	return hit == 1 && token != ""
}

// session is one login: its cookie id is the key; csrf is the token every form
// of the session carries.
type session struct {
	csrf    string
	expires time.Time
}

// sessions are kept in memory: a restart logs everyone out, which is the safe
// side (no session store to steal).
type sessions struct {
	ttl time.Duration
	now func() time.Time
	mu  sync.Mutex
	m   map[string]session
}

func newSessions(ttl time.Duration, now func() time.Time) *sessions {
	return &sessions{ttl: ttl, now: now, m: map[string]session{}}
}

func randomID() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (s *sessions) create() (string, session) {
	id, sess := randomID(), session{csrf: randomID(), expires: s.now().Add(s.ttl)}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for k, v := range s.m { // drop the expired ones, so the map stays small
		if now.After(v.expires) {
			delete(s.m, k)
		}
	}
	s.m[id] = sess
	return id, sess
}

// lookup finds a live session; known reports a session that existed but expired.
func (s *sessions) lookup(id string) (sess session, live bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.m[id]
	if ok && s.now().After(sess.expires) {
		delete(s.m, id)
		return session{}, false
	}
	return sess, ok
}

func (s *sessions) end(id string) {
	s.mu.Lock()
	delete(s.m, id)
	s.mu.Unlock()
}

type sessionKey struct{}

// sessionOf is the request's session; zero for a request with a bearer token.
func sessionOf(r *http.Request) session {
	s, _ := r.Context().Value(sessionKey{}).(session)
	return s
}

// authorize lets through a request with a live session cookie or an API bearer
// token. Pages without one go to the login page (saying the session ended when
// a cookie was sent); data requests get 401. Every POST of a session must come
// from the console itself (crossSite) and carry the session's CSRF token.
func (c *Console) authorize(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if auth := r.Header.Get("Authorization"); auth != "" {
			scheme, tok, _ := strings.Cut(auth, " ")
			if strings.EqualFold(scheme, "Bearer") && c.tokens.ok(tok) {
				next(w, r)
				return
			}
			c.errorPage(w, r, http.StatusUnauthorized, "Invalid bearer token", "The Authorization header does not carry one of the API's tokens.")
			return
		}
		ck, err := r.Cookie(cookieName)
		if err != nil {
			c.toLogin(w, r, "")
			return
		}
		sess, live := c.sessions.lookup(ck.Value)
		if !live {
			c.toLogin(w, r, "expired")
			return
		}
		if r.Method == http.MethodPost {
			if msg := crossSite(r); msg != "" {
				c.errorPage(w, r, http.StatusForbidden, "Cross-site request refused", msg)
				return
			}
			if subtle.ConstantTimeCompare([]byte(r.PostFormValue("csrf")), []byte(sess.csrf)) != 1 {
				c.errorPage(w, r, http.StatusForbidden, "Form expired",
					"This form's security token does not match your session: reload the page and submit again.")
				return
			}
		}
		next(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, sess)))
	}
}

// toLogin sends a page request to the login page and answers a data request
// (an event stream, a table refreshed by script) 401, which the script turns
// into a visit to the login page.
func (c *Console) toLogin(w http.ResponseWriter, r *http.Request, why string) {
	if r.Method != http.MethodGet || r.Header.Get("Accept") == "text/event-stream" || r.Header.Get("X-Console") != "" {
		c.errorPage(w, r, http.StatusUnauthorized, "Not logged in", "Log in again at /ui/login.")
		return
	}
	to := "/ui/login"
	if why != "" {
		to += "?why=" + why
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// crossSite says why a state-changing request did not come from the console's
// own pages, or "" when it did. Browsers send Sec-Fetch-Site; older ones send
// Origin on a POST; SameSite=Strict keeps the cookie off cross-site requests too.
func crossSite(r *http.Request) string {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return "The request came from another site (Sec-Fetch-Site: " + r.Header.Get("Sec-Fetch-Site") + "); submit the form from the console itself."
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host != r.Host {
			return "The request came from another origin (" + o + "); submit the form from the console itself."
		}
	}
	return ""
}

var loginMessages = map[string]string{
	"expired": "Your session has ended (it expired, or the server restarted): log in again.",
	"out":     "You are logged out.",
}

func (c *Console) loginPage(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, http.StatusOK, "login", map[string]any{"Message": loginMessages[r.URL.Query().Get("why")]})
}

// login exchanges an API token for a session cookie. The token travels only in
// the form's body, never in a URL.
func (c *Console) login(w http.ResponseWriter, r *http.Request) {
	if msg := crossSite(r); msg != "" {
		c.errorPage(w, r, http.StatusForbidden, "Cross-site request refused", msg)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	if !c.tokens.ok(r.PostFormValue("token")) {
		c.render(w, r, http.StatusUnauthorized, "login", map[string]any{
			"Error": "Wrong token: paste one of the API's tokens (ALBERT_CODE_API_MODE_TOKEN), the same one API clients send as Authorization: Bearer."})
		return
	}
	id, sess := c.sessions.create()
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: "/ui", HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, Expires: sess.expires})
	http.Redirect(w, r, "/ui/runs", http.StatusSeeOther)
}

func (c *Console) logout(w http.ResponseWriter, r *http.Request) {
	if ck, err := r.Cookie(cookieName); err == nil {
		c.sessions.end(ck.Value)
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/ui", HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(w, r, "/ui/login?why=out", http.StatusSeeOther)
}
