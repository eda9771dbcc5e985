package webmap

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
)

// CookieName holds the map's token in the browser.
const CookieName = "albert_map"

// NewToken returns a random token for RequireToken.
func NewToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// RequireToken lets through only the browser that opened the printed URL: a
// visit with ?token=T sets T in an HttpOnly, SameSite=Strict cookie and
// redirects to the same page without it (so the token leaves the address bar
// and the history); every other request needs that cookie. Other users of the
// machine can reach 127.0.0.1 but not read the token.
func RequireToken(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if t := r.URL.Query().Get("token"); t != "" {
			if !equal(t, token) {
				deny(w, "the token in this address is not this map's: open the URL that `albert-code graph ui` printed")
				return
			}
			http.SetCookie(w, &http.Cookie{Name: CookieName, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			u := *r.URL
			q := u.Query()
			q.Del("token")
			u.RawQuery = q.Encode()
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
			return
		}
		c, err := r.Cookie(CookieName)
		if err != nil || !equal(c.Value, token) {
			deny(w, "this map needs its token: open the URL that `albert-code graph ui` printed (with ?token=…)")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// deny answers 403 with a page that says what to do (never a blank one).
func deny(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	_, _ = w.Write([]byte("albert-code graph map: " + msg + "\n"))
}
