package console

import (
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

var privatePages = []string{"/ui/runs", "/ui/runs/abc", "/ui/cron", "/ui/cron/job", "/ui/quota", "/ui/files/", "/ui/elsewhere"}

// No page and no data is reachable without the token: pages send the browser to
// the login page, data requests get 401.
func TestEveryPageNeedsALogin(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	for _, p := range privatePages {
		resp, _ := f.get(p)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/ui/login" {
			t.Errorf("GET %s: %d to %q, want 303 to /ui/login", p, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	for _, p := range []string{"/ui/runs/table", "/ui/quota/gauges"} {
		if resp, _ := f.get(p, "X-Console", "1"); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s from the script: %d, want 401", p, resp.StatusCode)
		}
	}
	if resp, _ := f.get("/ui/runs/abc/events", "Accept", "text/event-stream"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("event stream: %d, want 401", resp.StatusCode)
	}
	if resp, body := f.get("/ui/runs", "Authorization", "Bearer nope"); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "Invalid bearer token") {
		t.Errorf("a wrong bearer token: %d %s", resp.StatusCode, body)
	}
	// The API's bearer token opens the pages too, for scripts.
	if resp, _ := f.get("/ui/runs", "Authorization", "Bearer "+testToken); resp.StatusCode != http.StatusOK {
		t.Errorf("with the bearer token: %d, want 200", resp.StatusCode)
	}
}

func TestAWrongTokenIsAClearPageAndNoCookie(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	resp, body := f.post("/ui/login", url.Values{"token": {"guess"}})
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "Wrong token") || len(resp.Cookies()) != 0 {
		t.Errorf("wrong token: %d, cookies %v\n%s", resp.StatusCode, resp.Cookies(), body)
	}
	if resp, _ := f.post("/ui/login", url.Values{"token": {""}}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("empty token: %d", resp.StatusCode)
	}
}

func TestLoginSetsAStrictHttpOnlyCookieSecureOverTLS(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	resp, _ := f.post("/ui/login", url.Values{"token": {testToken}})
	ck := resp.Cookies()
	if len(ck) != 1 || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode || ck[0].Path != "/ui" || ck[0].Secure || len(ck[0].Value) != 64 {
		t.Fatalf("cookie over plain HTTP: %+v", ck)
	}
	if strings.Contains(resp.Header.Get("Location"), testToken) {
		t.Errorf("the token is in a URL: %s", resp.Header.Get("Location"))
	}
	// Over TLS the cookie is Secure.
	tls := httptest.NewTLSServer(f.srv.Config.Handler)
	defer tls.Close()
	client := tls.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.PostForm(tls.URL+"/ui/login", url.Values{"token": {testToken}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ck := resp.Cookies(); len(ck) != 1 || !ck[0].Secure {
		t.Errorf("cookie over TLS: %+v, want Secure", ck)
	}
}

func TestAnExpiredSessionGoesBackToLoginWithAMessage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *Options) { o.SessionTTL = time.Hour })
	f.login()
	if resp, _ := f.get("/ui/runs"); resp.StatusCode != http.StatusOK {
		t.Fatalf("logged in: %d", resp.StatusCode)
	}
	f.clock.Add(time.Hour + time.Second)
	resp, _ := f.get("/ui/runs")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/ui/login?why=expired" {
		t.Fatalf("expired: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, body := f.get("/ui/login?why=expired")
	if !strings.Contains(body, "Your session has ended") {
		t.Errorf("the login page does not say why:\n%s", body)
	}
}

func TestLogoutEndsTheSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	csrf := f.login()
	// Keep the cookie, as a stolen copy would be kept.
	u, _ := url.Parse(f.srv.URL + "/ui/")
	old := f.client.Jar.Cookies(u)
	resp, _ := f.post("/ui/logout", url.Values{"csrf": {csrf}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/ui/login?why=out" {
		t.Fatalf("logout: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	jar, _ := cookiejar.New(nil)
	jar.SetCookies(u, old)
	f.client.Jar = jar
	if resp, _ := f.get("/ui/runs"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the old cookie still opens the console: %d", resp.StatusCode)
	}
}

// Every form is protected: the session's CSRF token, and a refusal of requests
// that say they come from another site.
func TestFormsRefuseCrossSiteRequests(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	csrf := f.login()
	cases := []struct {
		name    string
		form    url.Values
		headers []string
	}{
		{"no token", url.Values{}, nil},
		{"a wrong token", url.Values{"csrf": {"x" + csrf[1:]}}, nil},
		{"Sec-Fetch-Site cross-site", url.Values{"csrf": {csrf}}, []string{"Sec-Fetch-Site", "cross-site"}},
		{"Sec-Fetch-Site same-site", url.Values{"csrf": {csrf}}, []string{"Sec-Fetch-Site", "same-site"}},
		{"another Origin", url.Values{"csrf": {csrf}}, []string{"Origin", "http://evil.example"}},
	}
	for _, c := range cases {
		resp, body := f.post("/ui/runs/r1/cancel", c.form, c.headers...)
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s: %d, want 403\n%s", c.name, resp.StatusCode, body)
		}
	}
	if len(f.cancels) != 0 {
		t.Fatalf("a refused form reached the API's cancel")
	}
	resp, _ := f.post("/ui/runs/r1/cancel", url.Values{"csrf": {csrf}}, "Sec-Fetch-Site", "same-origin", "Origin", f.srv.URL)
	if resp.StatusCode != http.StatusSeeOther || <-f.cancels != "r1" {
		t.Errorf("the console's own form: %d", resp.StatusCode)
	}
	// The login form has no session yet: the site check alone guards it.
	if resp, _ := f.post("/ui/login", url.Values{"token": {testToken}}, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusForbidden || len(resp.Cookies()) != 0 {
		t.Errorf("a cross-site login: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
}

func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	f.login()
	for _, p := range []string{"/ui/login", "/ui/runs", "/ui/nope", "/ui/assets/console.js"} {
		resp, body := f.get(p)
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") ||
			strings.Contains(csp, "unsafe-inline") || resp.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: CSP %q, X-Frame-Options %q", p, csp, resp.Header.Get("X-Frame-Options"))
		}
		// No inline script: every <script> names its file.
		for _, tag := range strings.Split(body, "<script")[1:] {
			if !strings.HasPrefix(tag, ` src="/ui/assets/`) {
				t.Errorf("%s has an inline script: <script%.40s", p, tag)
			}
		}
	}
}
