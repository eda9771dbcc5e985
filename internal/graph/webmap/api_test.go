package webmap

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// serveMap starts the map of root over a real socket on 127.0.0.1.
func serveMap(t *testing.T, opt Options) *httptest.Server {
	t.Helper()
	m, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(m)
	t.Cleanup(func() {
		srv.Close()
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	})
	return srv
}

// get fetches path and decodes its JSON into v, checking the status.
func get(t *testing.T, srv *httptest.Server, path string, wantCode int, v any) {
	t.Helper()
	res, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != wantCode {
		t.Fatalf("GET %s = %d, want %d: %s", path, res.StatusCode, wantCode, body)
	}
	if v != nil {
		if err := json.Unmarshal(body, v); err != nil {
			t.Fatalf("GET %s: %v in %s", path, err, body)
		}
	}
}

func TestMapDrawsEverySymbolOfASmallGraphInItsCommunity(t *testing.T) {
	t.Parallel()
	root, db := indexedFixture(t)
	srv := serveMap(t, Options{Root: root, IndexPath: db})
	var st statusAnswer
	get(t, srv, "/api/status", 200, &st)
	if !st.Indexed || st.Root != root || st.CanBuild {
		t.Fatalf("status = %+v", st)
	}
	var ov overviewAnswer
	get(t, srv, "/api/map", 200, &ov)
	if ov.Mode != "symbols" || ov.Count == 0 || len(ov.Communities) != ov.Count {
		t.Fatalf("map: mode %s, %d of %d communities", ov.Mode, len(ov.Communities), ov.Count)
	}
	inCommunity := map[string]int{}
	for _, m := range ov.Members {
		inCommunity[strings.TrimPrefix(m.QName, fixtureModule)] = m.Community
	}
	for _, want := range []string{"shapes.Total", "shapes.Circle.Area", "report.Summary", "report.Print"} {
		if _, ok := inCommunity[want]; !ok {
			t.Errorf("%s is not drawn; members %v", want, inCommunity)
		}
	}
	if !slices.ContainsFunc(ov.Calls, func(c call) bool {
		return c.From == fixtureModule+"report.Print" && c.To == fixtureModule+"report.Summary"
	}) {
		t.Errorf("the call Print → Summary is not drawn: %v", ov.Calls)
	}
	for _, c := range ov.Calls {
		if _, ok := inCommunity[strings.TrimPrefix(c.From, fixtureModule)]; !ok {
			t.Errorf("call from %s, which is not drawn", c.From)
		}
	}
}

func TestMapOfALargeGraphShowsCommunitiesOnlyAndSaysSo(t *testing.T) {
	t.Parallel()
	root, db := indexedFixture(t)
	srv := serveMap(t, Options{Root: root, IndexPath: db, MaxSymbols: 2, MaxCommunities: 1})
	var ov overviewAnswer
	get(t, srv, "/api/map", 200, &ov)
	if ov.Mode != "communities" || len(ov.Members) != 0 || len(ov.Calls) != 0 {
		t.Fatalf("map: mode %s, %d members, %d calls; want communities only", ov.Mode, len(ov.Members), len(ov.Calls))
	}
	if len(ov.Communities) != 1 || !strings.Contains(ov.Note, "more than 2 to draw one by one") ||
		!strings.Contains(ov.Note, "smaller communities are not drawn") {
		t.Fatalf("communities %v, note %q", ov.Communities, ov.Note)
	}
	var c communityAnswer
	get(t, srv, "/api/community/"+itoa(ov.Communities[0].ID), 200, &c)
	if len(c.Members) != 2 || !strings.Contains(c.Note, "most connected") {
		t.Fatalf("community capped at 2 members: %d members, note %q", len(c.Members), c.Note)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestCommunityOpensItsMembersAndCallsBetweenThem(t *testing.T) {
	t.Parallel()
	root, db := indexedFixture(t)
	srv := serveMap(t, Options{Root: root, IndexPath: db})
	var ov overviewAnswer
	get(t, srv, "/api/map", 200, &ov)
	total := 0
	for _, cl := range ov.Communities {
		var c communityAnswer
		get(t, srv, "/api/community/"+itoa(cl.ID), 200, &c)
		if c.ID != cl.ID || len(c.Members) != cl.Size || c.Name != cl.Name {
			t.Fatalf("community %d: %+v, want %+v", cl.ID, c, cl)
		}
		in := map[string]bool{}
		for _, m := range c.Members {
			in[m.QName] = true
		}
		for _, k := range c.Calls {
			if !in[k.From] || !in[k.To] {
				t.Errorf("community %d draws a call %s → %s that leaves it", cl.ID, k.From, k.To)
			}
		}
		total += len(c.Members)
	}
	if total != len(ov.Members) {
		t.Fatalf("communities hold %d members, the map %d", total, len(ov.Members))
	}
	var e apiError
	get(t, srv, "/api/community/999", 404, &e)
	if !strings.Contains(e.Error, "community 999") {
		t.Fatalf("unknown community: %q", e.Error)
	}
	get(t, srv, "/api/community/x", 400, &e)
	if !strings.Contains(e.Error, `"x"`) {
		t.Fatalf("bad community: %q", e.Error)
	}
}

func TestSymbolNeighbourhood(t *testing.T) {
	t.Parallel()
	root, db := indexedFixture(t)
	srv := serveMap(t, Options{Root: root, IndexPath: db})
	names := func(items []struct {
		QName string `json:"qualified_name"`
	}) []string {
		var out []string
		for _, it := range items {
			out = append(out, strings.TrimPrefix(it.QName, fixtureModule))
		}
		slices.Sort(out)
		return out
	}
	type items = []struct {
		QName string `json:"qualified_name"`
	}
	var n struct {
		Targets, Callers, Callees, Implementations items
		Certainty                                  string
	}
	get(t, srv, "/api/symbol?name=Summary", 200, &n)
	if got := names(n.Callers); !slices.Equal(got, []string{"report.Print"}) {
		t.Errorf("callers of Summary = %v", got)
	}
	if got := names(n.Callees); !slices.Contains(got, "shapes.Total") {
		t.Errorf("callees of Summary = %v", got)
	}
	get(t, srv, "/api/symbol?name="+fixtureModule+"shapes.Shape", 200, &n)
	if got := names(n.Implementations); !slices.Equal(got, []string{"shapes.Circle", "shapes.Square"}) {
		t.Errorf("implementations of Shape = %v", got)
	}
	var e apiError
	get(t, srv, "/api/symbol?name=Summry", 404, &e)
	if !strings.Contains(e.Error, `no definition named "Summry"`) || !slices.ContainsFunc(e.DidYouMean, func(s string) bool {
		return strings.HasSuffix(s, "report.Summary")
	}) {
		t.Fatalf("unknown symbol: %+v", e)
	}
	get(t, srv, "/api/symbol?name=", 400, &e)
	if !strings.Contains(e.Error, "no symbol") {
		t.Fatalf("empty name: %q", e.Error)
	}
}

func TestSearchProposesNames(t *testing.T) {
	t.Parallel()
	root, db := indexedFixture(t)
	srv := serveMap(t, Options{Root: root, IndexPath: db})
	var res struct {
		Hits []struct {
			QName string `json:"qualified_name"`
		}
	}
	get(t, srv, "/api/search?q=Total", 200, &res)
	if len(res.Hits) == 0 || res.Hits[0].QName != fixtureModule+"shapes.Total" {
		t.Fatalf("search Total = %+v", res.Hits)
	}
	get(t, srv, "/api/search?q=", 200, &res)
	if len(res.Hits) != 0 {
		t.Fatalf("empty search = %+v", res.Hits)
	}
}

func TestChangesOfTheWorkingTreeCarryTheirRisk(t *testing.T) {
	t.Parallel()
	root, db := indexedFixture(t)
	srv := serveMap(t, Options{Root: root, IndexPath: db})
	var rep struct {
		Changed []struct {
			QName     string  `json:"qualified_name"`
			RiskScore float64 `json:"risk_score"`
			Risk      string  `json:"risk"`
		}
		RiskScore   float64 `json:"risk_score"`
		Communities []struct {
			ID, Changed int
		}
	}
	get(t, srv, "/api/changes", 200, &rep)
	if len(rep.Changed) != 1 || rep.Changed[0].QName != fixtureModule+"shapes.Square.Area" {
		t.Fatalf("changed = %+v, want Square.Area alone", rep.Changed)
	}
	if rep.Changed[0].RiskScore <= 0 || rep.RiskScore != rep.Changed[0].RiskScore || rep.Changed[0].Risk == "" {
		t.Fatalf("risk = %+v", rep)
	}
	if !slices.ContainsFunc(rep.Communities, func(c struct{ ID, Changed int }) bool { return c.Changed == 1 }) {
		t.Fatalf("communities touched = %+v", rep.Communities)
	}
}

func TestNoIndexYetSaysHowAndTheButtonBuildsIt(t *testing.T) {
	t.Parallel()
	root, db := fixtureRepo(t)
	srv := serveMap(t, Options{Root: root, IndexPath: db, Build: buildIndex(root, db)})
	var st statusAnswer
	get(t, srv, "/api/status", 200, &st)
	if st.Indexed || !st.CanBuild || st.How != "albert-code graph index "+root {
		t.Fatalf("status = %+v", st)
	}
	var e apiError
	get(t, srv, "/api/map", 409, &e)
	if !strings.Contains(e.Error, "has no index yet") || !strings.Contains(e.Error, "albert-code graph index") {
		t.Fatalf("map without index: %q", e.Error)
	}
	post := func(header bool) *http.Response {
		req, _ := http.NewRequest("POST", srv.URL+"/api/index", nil)
		if header {
			req.Header.Set(requestHeader, "1")
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	if res := post(false); res.StatusCode != http.StatusForbidden {
		t.Fatalf("a build without the page's header = %d, want 403", res.StatusCode)
	}
	if res := post(true); res.StatusCode != http.StatusAccepted {
		t.Fatalf("build = %d, want 202", res.StatusCode)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		get(t, srv, "/api/status", 200, &st)
		if st.Indexed || st.BuildError != "" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !st.Indexed || st.BuildError != "" {
		t.Fatalf("after the build: %+v", st)
	}
	var ov overviewAnswer
	get(t, srv, "/api/map", 200, &ov)
	if len(ov.Members) == 0 {
		t.Fatal("the map is empty after the build")
	}
}

func TestWithoutABuilderThePageSaysToRunTheCommand(t *testing.T) {
	t.Parallel()
	root, db := fixtureRepo(t)
	srv := serveMap(t, Options{Root: root, IndexPath: db})
	req, _ := http.NewRequest("POST", srv.URL+"/api/index", nil)
	req.Header.Set(requestHeader, "1")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusNotImplemented || !strings.Contains(string(body), "albert-code graph index") {
		t.Fatalf("build without a builder = %d %s", res.StatusCode, body)
	}
}

func TestPageAndAssetsAreEmbeddedBehindAStrictPolicy(t *testing.T) {
	t.Parallel()
	root, db := fixtureRepo(t)
	srv := serveMap(t, Options{Root: root, IndexPath: db})
	for path, want := range map[string]string{"/": "<title>Code graph map", "/map.js": "albertMap",
		"/vendor/cytoscape.min.js": "Cytoscape Consortium", "/map.css": "#graph"} {
		res, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s = %d, want a body with %q", path, res.StatusCode, want)
		}
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("GET %s: policy %q", path, csp)
		}
	}
	res, err := srv.Client().Get(srv.URL + "/vendor/cytoscape.LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("the vendored licence is not served: %d", res.StatusCode)
	}
}
