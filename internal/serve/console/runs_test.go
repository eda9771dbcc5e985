package console

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

func TestARunsPromptIsShownEscaped(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	f.login()
	f.addRun("r1", `<script>alert("x")</script>`, runstore.Completed)
	resp, body := f.get("/ui/runs/r1")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if strings.Contains(body, `<script>alert`) || !strings.Contains(body, `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`) {
		t.Errorf("the prompt is not escaped:\n%s", body)
	}
	if strings.Contains(body, "<b>bold</b>") || !strings.Contains(body, "the answer &lt;b&gt;bold&lt;/b&gt;") {
		t.Errorf("the answer is not escaped")
	}
	for _, want := range []string{"albert-large", "120 in / 7 out", "0.0012 EUR", `&#34;ok&#34;: true`, "proj"} {
		if !strings.Contains(body, want) {
			t.Errorf("the run page lacks %q", want)
		}
	}
}

// A failed run shows why: the stored error, and the provider's own words.
func TestAFailedRunShowsItsErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	f.login()
	ctx := context.Background()
	f.addRun("bad", "p", runstore.Running)
	if err := f.store.Finish(ctx, "bad", runstore.Failed, []byte(`{"detail":"the model provider failed: bad key","providerError":"401 {\"error\":\"bad key\"}","outputError":"line 3 is not JSON"}`), "the model provider failed: bad key"); err != nil {
		t.Fatal(err)
	}
	_, body := f.get("/ui/runs/bad")
	for _, want := range []string{`<span class="badge failed" id="status">failed</span>`, "the model provider failed: bad key",
		`401 {&#34;error&#34;:&#34;bad key&#34;}`, "line 3 is not JSON"} {
		if !strings.Contains(body, want) {
			t.Errorf("the failed run's page lacks %q", want)
		}
	}
}

func TestAnUnknownRunIsAClear404Page(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	csrf := f.login()
	resp, body := f.get("/ui/runs/does-not-exist")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "No such run") || !strings.Contains(body, "does-not-exist") {
		t.Errorf("unknown run: %d\n%s", resp.StatusCode, body)
	}
	resp, body = f.get("/ui/no/such/page")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "Page not found") {
		t.Errorf("unknown page: %d\n%s", resp.StatusCode, body)
	}
	resp, body = f.post("/ui/no/such/form", url.Values{"csrf": {csrf}})
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "Page not found") {
		t.Errorf("POST to an unknown page: %d\n%s", resp.StatusCode, body)
	}
}

// With 120 runs the list draws 50 rows a page, newest first, with every
// column the console promises.
func TestTheRunsListIsPaginated(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	f.login()
	for i := range 120 {
		st := runstore.Completed
		if i == 119 {
			st = runstore.Running
		}
		f.addRun(fmt.Sprintf("run%03d", i), "p", st)
	}
	_, body := f.get("/ui/runs")
	if n := strings.Count(body, `<tr class="run `); n != pageSize {
		t.Errorf("page 1 draws %d rows, want %d", n, pageSize)
	}
	if !strings.Contains(body, "page 1 of 3") || !strings.Contains(body, "running 1") || !strings.Contains(body, "completed 119") {
		t.Errorf("counts or pages missing")
	}
	_, table := f.get("/ui/runs/table?page=3")
	if n := strings.Count(table, `<tr class="run `); n != 20 || strings.Contains(table, "<html") {
		t.Errorf("the table fragment of page 3 draws %d rows (want 20) or is a whole page", n)
	}
	for _, col := range []string{"Workspace", "Adapter", "Model", "Duration", "Tokens", "Cost", "albert-code", "albert-large", "120 in / 7 out"} {
		if !strings.Contains(body, col) {
			t.Errorf("the list lacks %q", col)
		}
	}
}

// The event stream sends the events already recorded, then those written while
// it is open, then the run's end.
func TestRunEventsStreamAsTheyAreRecorded(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	f.login()
	f.addRun("live", "p", runstore.Running)
	ctx := context.Background()
	add := func(typ, text string) {
		if err := f.store.AppendEvents(ctx, "live", []runstore.Event{{Type: typ, Data: []byte(`{"type":"` + typ + `","text":"` + text + `"}`)}}); err != nil {
			t.Fatal(err)
		}
	}
	add("delta", "one")
	req, _ := http.NewRequest("GET", f.srv.URL+"/ui/runs/live/events", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(prefix string) string {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the stream ended before %q", prefix)
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-timeout:
				t.Fatalf("no %q within 10 s", prefix)
			}
		}
	}
	if l := next("data: "); !strings.Contains(l, `"text":"one"`) || !strings.Contains(l, `"seq":1`) {
		t.Errorf("first event %s", l)
	}
	add("delta", "two")
	if l := next("data: "); !strings.Contains(l, `"text":"two"`) {
		t.Errorf("live event %s", l)
	}
	if err := f.store.Finish(ctx, "live", runstore.Completed, []byte(`{"text":"onetwo"}`), ""); err != nil {
		t.Fatal(err)
	}
	next("event: end")
	if l := next("data: "); l != `data: "completed"` {
		t.Errorf("end %s", l)
	}
}

func TestCancelGoesThroughTheAPIAndSaysSo(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	csrf := f.login()
	f.addRun("r2", "p", runstore.Running)
	_, page := f.get("/ui/runs/r2")
	if !strings.Contains(page, `action="/ui/runs/r2/cancel"`) {
		t.Fatalf("a running run has no cancel form")
	}
	resp, _ := f.post("/ui/runs/r2/cancel", map[string][]string{"csrf": {csrf}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/ui/runs/r2?notice=cancelled" || <-f.cancels != "r2" {
		t.Fatalf("cancel: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if _, body := f.get("/ui/runs/r2?notice=cancelled"); !strings.Contains(body, "The run was cancelled") {
		t.Errorf("no notice after the cancel")
	}
	f.addRun("r3", "p", runstore.Completed)
	if _, body := f.get("/ui/runs/r3"); strings.Contains(body, "/cancel") {
		t.Errorf("a finished run offers a cancel")
	}
}

// A reconnecting stream (the browser sends the last id it saw) resumes after it.
func TestRunEventsResumeAfterLastEventID(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	f.login()
	f.addRun("done", "p", runstore.Completed)
	ctx := context.Background()
	for _, text := range []string{"a", "b", "c"} {
		if err := f.store.AppendEvents(ctx, "done", []runstore.Event{{Type: "delta", Data: []byte(`{"text":"` + text + `"}`)}}); err != nil {
			t.Fatal(err)
		}
	}
	_, body := f.get("/ui/runs/done/events", "Accept", "text/event-stream", "Last-Event-ID", "2")
	if strings.Count(body, "event: run") != 1 || !strings.Contains(body, `"seq":3`) || !strings.HasSuffix(body, "event: end\ndata: \"completed\"\n\n") {
		t.Errorf("resumed stream:\n%s", body)
	}
}
