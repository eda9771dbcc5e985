package webmap

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestWorkspacesServeEachWorkspacesMapUnderItsName(t *testing.T) {
	t.Parallel()
	root, db := indexedFixture(t)
	ws := NewWorkspaces(func(name string) (string, error) {
		if name != "shapes" {
			return "", errors.New(`no workspace named "` + name + `"`)
		}
		return root, nil
	}, Options{IndexPath: db})
	mux := http.NewServeMux()
	mux.Handle("/ui/map/", http.StripPrefix("/ui/map", ws))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		if err := ws.Close(); err != nil {
			t.Error(err)
		}
	})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) (*http.Response, string) {
		res, err := noRedirect.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(body)
	}
	if res, _ := get("/ui/map/shapes"); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "shapes/" {
		t.Fatalf("without the slash: %d to %q, want 303 to shapes/", res.StatusCode, res.Header.Get("Location"))
	}
	if res, body := get("/ui/map/shapes/"); res.StatusCode != 200 || !strings.Contains(body, "<title>Code graph map") {
		t.Fatalf("the page: %d %s", res.StatusCode, body)
	}
	res, body := get("/ui/map/shapes/api/status")
	if res.StatusCode != 200 || !strings.Contains(body, `"root":"`+root+`"`) || !strings.Contains(body, `"indexed":true`) {
		t.Fatalf("status: %d %s", res.StatusCode, body)
	}
	if res, body := get("/ui/map/nope/api/status"); res.StatusCode != 404 || !strings.Contains(body, `no workspace named "nope"`) {
		t.Fatalf("an unknown workspace: %d %s", res.StatusCode, body)
	}
}
