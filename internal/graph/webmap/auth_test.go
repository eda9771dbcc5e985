package webmap

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestTokenIsExchangedForACookieOnTheFirstVisit(t *testing.T) {
	t.Parallel()
	token := NewToken()
	if len(token) != 48 || token == NewToken() {
		t.Fatalf("token %q: want 48 random hex digits", token)
	}
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("map")) })
	srv := httptest.NewServer(RequireToken(token, inner))
	defer srv.Close()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(path string, cookie *http.Cookie) *http.Response {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if cookie != nil {
			req.AddCookie(cookie)
		}
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	if res := do("/", nil); res.StatusCode != http.StatusForbidden {
		t.Fatalf("no cookie = %d, want 403", res.StatusCode)
	}
	if res := do("/?token=wrong", nil); res.StatusCode != http.StatusForbidden {
		t.Fatalf("a wrong token = %d, want 403", res.StatusCode)
	}
	if res := do("/api/map", &http.Cookie{Name: CookieName, Value: "wrong"}); res.StatusCode != http.StatusForbidden {
		t.Fatalf("a wrong cookie = %d, want 403", res.StatusCode)
	}
	res := do("/?token="+token+"&x=1", nil)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/?x=1" {
		t.Fatalf("first visit = %d to %q, want 303 to the same page without the token", res.StatusCode, res.Header.Get("Location"))
	}
	cookies := res.Cookies()
	if len(cookies) != 1 || cookies[0].Value != token || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie = %+v, want the token, HttpOnly, SameSite=Strict", cookies)
	}
	if res := do("/api/map", cookies[0]); res.StatusCode != http.StatusOK {
		t.Fatalf("with the cookie = %d, want 200", res.StatusCode)
	}
	if res := do("/", nil); !strings.Contains(res.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("the refusal has no policy: %v", res.Header)
	}
}
