package webmap

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/etalab-ia/albert-code/internal/browsertest"
)

// openMap serves opt behind a token and opens it in a headless Chromium the way
// a user does: the printed URL first, then the cookie.
func openMap(t *testing.T, opt Options) *browsertest.Browser {
	t.Helper()
	m, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	token := NewToken()
	srv := httptest.NewServer(RequireToken(token, m))
	t.Cleanup(func() {
		srv.Close()
		_ = m.Close()
	})
	b := browsertest.New(t, browsertest.Options{Timeout: 45 * time.Second})
	b.Do("open the printed URL", chromedp.Navigate(srv.URL+"/?token="+token))
	return b
}

// poll evaluates a JavaScript condition every 100 ms until it holds, across
// reloads (an evaluation during a navigation fails and is tried again).
func poll(t *testing.T, b *browsertest.Browser, what, cond string) {
	t.Helper()
	var last error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		ok, err := chromedp.Run(b.Context(), chromedp.Evaluate[bool]("!!("+cond+")"))
		if err == nil && ok {
			return
		}
		last = err
		if b.Context().Err() != nil {
			break
		}
	}
	var state string
	state, _ = chromedp.Run(b.Context(), chromedp.Evaluate[string](`document.body.dataset.state + ": " + document.getElementById("note").textContent`))
	t.Fatalf("browser: %s: %s never held (last error %v; page %q; problems %v)", what, cond, last, state, b.Problems())
}

// eval evaluates a JavaScript expression and returns its value.
func eval[T any](t *testing.T, b *browsertest.Browser, what, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.Context(), chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("browser: %s: %v (problems %v)", what, err, b.Problems())
	}
	return v
}

// text is the visible text of the element selector names.
func text(t *testing.T, b *browsertest.Browser, selector string) string {
	t.Helper()
	v, err := chromedp.Run(b.Context(), chromedp.Text(chromedp.CSS(selector)))
	if err != nil {
		t.Fatalf("browser: read %s: %v", selector, err)
	}
	return v
}

func TestMapInTheBrowser(t *testing.T) {
	t.Parallel()
	root, db := indexedFixture(t)
	b := openMap(t, Options{Root: root, IndexPath: db})
	square := fixtureModule + "shapes.Square.Area"

	poll(t, b, "the communities are drawn, the changed one highlighted",
		`document.body.dataset.drawn === "map" && albertMap.cy.nodes(".touched").length === 1`)
	b.Screenshot("map")
	b.Do("show every symbol", chromedp.Click(chromedp.ID("toggle-symbols")))
	poll(t, b, "every symbol is drawn with the changes highlighted",
		`document.body.dataset.drawn === "symbols" && albertMap.cy.nodes(".changed").length > 0`)
	changed := eval[[]string](t, b, "the highlighted nodes", `albertMap.cy.nodes(".changed").map(n => n.data("qname"))`)
	if len(changed) != 1 || changed[0] != square {
		t.Fatalf("highlighted %v, want %s", changed, square)
	}
	risk := text(t, b, "#risk")
	if !strings.Contains(risk, "risk 0.") {
		t.Fatalf("risk line %q", risk)
	}
	nodes := eval[int](t, b, "count the nodes", `albertMap.cy.nodes().length`)
	if nodes < 8 {
		t.Fatalf("%d nodes drawn, want the fixture's communities and symbols", nodes)
	}
	b.Screenshot("symbols")

	b.Do("search a symbol", chromedp.SendKeys(chromedp.ID("q"), "Summary"))
	poll(t, b, "the search proposes it", `[...document.querySelectorAll("#hits button")].some(b => b.textContent.includes("report.Summary"))`)
	eval[bool](t, b, "pick it", `[...document.querySelectorAll("#hits button")].find(b => b.textContent.includes("report.Summary")).click(), true`)
	poll(t, b, "Summary's neighbourhood is drawn",
		`document.body.dataset.drawn === "symbol" && document.querySelector("#detail h2").textContent.endsWith("report.Summary")`)
	callers := text(t, b, "#callers")
	if !strings.Contains(callers, "report.Print") {
		t.Fatalf("callers of Summary: %q", callers)
	}
	b.Screenshot("symbol")

	b.Do("click through to the caller", chromedp.Click(chromedp.CSS("#callers button")))
	poll(t, b, "Print's neighbourhood is drawn", `document.querySelector("#detail h2").textContent.endsWith("report.Print")`)
	callees := text(t, b, "#callees")
	if !strings.Contains(callees, "report.Summary") {
		t.Fatalf("callees of Print: %q", callees)
	}
	poll(t, b, "the graph holds Print and Summary", `albertMap.cy.getElementById("s:`+fixtureModule+`report.Summary").nonempty()`)

	b.Allow(`404 .*/api/symbol\?name=Nope`)
	eval[bool](t, b, "ask for an unknown symbol", `location.hash = "symbol=Nope", true`)
	poll(t, b, "the page says so", `document.body.dataset.state === "unknown" && document.getElementById("note").textContent.includes('no definition named "Nope"')`)

	eval[bool](t, b, "back to the map", `location.hash = "", true`)
	poll(t, b, "the map again", `document.body.dataset.drawn === "map" && document.querySelectorAll("#detail ol button").length > 0`)
	b.Do("open a community", chromedp.Click(chromedp.CSS("#detail ol button")))
	poll(t, b, "its members are drawn", `document.body.dataset.drawn === "community" && albertMap.cy.nodes().length > 0 && document.querySelectorAll("#detail ul li").length === albertMap.cy.nodes().length`)
}

func TestMapInTheBrowserBuildsAMissingIndex(t *testing.T) {
	t.Parallel()
	root, db := fixtureRepo(t)
	b := openMap(t, Options{Root: root, IndexPath: db, Build: buildIndex(root, db)})
	poll(t, b, "the page says there is no index", `document.body.dataset.state === "empty" && !document.getElementById("build").hidden`)
	how := text(t, b, "#empty-how")
	if how != "albert-code graph index "+root {
		t.Fatalf("the page says %q", how)
	}
	b.Screenshot("no index")
	b.Do("build it", chromedp.Click(chromedp.ID("build")))
	poll(t, b, "the map appears", `document.body.dataset.drawn === "map" && albertMap.cy.nodes().length > 0`)
}

func TestAggregatedMapInTheBrowser(t *testing.T) {
	t.Parallel()
	root, db := indexedFixture(t)
	b := openMap(t, Options{Root: root, IndexPath: db, MaxSymbols: 2})
	poll(t, b, "communities are drawn as nodes", `document.body.dataset.drawn === "map" && albertMap.cy.nodes().length > 0 && !document.getElementById("toggle-symbols")`)
	note := text(t, b, "#note")
	if !strings.Contains(note, "shows each community as one node") {
		t.Fatalf("note %q", note)
	}
	poll(t, b, "the touched community is highlighted", `albertMap.cy.nodes(".touched").length > 0`)
	eval[bool](t, b, "click a community node", `albertMap.cy.nodes()[0].emit("tap"), true`)
	poll(t, b, "its members are drawn", `document.body.dataset.drawn === "community"`)
}
