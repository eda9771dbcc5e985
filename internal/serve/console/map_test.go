package console

import (
	"net/http"
	"strings"
	"testing"
)

// TestMapIsMountedBehindTheLogin: the code graph map (Options.Map) answers under
// /ui/map/ only after a login, with the prefix stripped.
func TestMapIsMountedBehindTheLogin(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *Options) {
		o.Map = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte("map of " + r.URL.Path))
		})
	})
	if resp, _ := f.get("/ui/map/ws/"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/ui/login") {
		t.Fatalf("before login: %d to %q, want the login page", resp.StatusCode, resp.Header.Get("Location"))
	}
	f.login()
	resp, body := f.get("/ui/map/ws/api/map")
	if resp.StatusCode != http.StatusOK || body != "map of /ws/api/map" {
		t.Fatalf("after login: %d %q", resp.StatusCode, body)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Fatalf("the map has no policy: %q", csp)
	}
}
