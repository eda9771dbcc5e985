package openai

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
)

// wholeAgent is the fake agent as an adapter that prints its answer only whole, as
// codex does.
type wholeAgent struct{ cli.Adapter }

func (wholeAgent) WholeMessages() bool { return true }

// A streamed request to an agent that prints nothing until its answer is whole gets
// its headers and a first comment at once, not after the agent's minutes of work.
func TestStreamOpensAtOnceForAWholeMessageAgent(t *testing.T) {
	t.Parallel()
	srv, f := cliServerOpts(t, "testdata/fake-chat.toml", func(o *Options) {
		o.Backend = wholeAgent{o.Backend.(cli.Adapter)}
	}, "fini")
	f.set(t, 1, "sleep", "3")
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions",
		strings.NewReader(`{"model":"fake","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	req.Header.Set("Authorization", "Bearer "+testToken)
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	var first []string
	for len(first) < 4 && sc.Scan() {
		first = append(first, sc.Text())
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the stream's first lines took %v: the agent sleeps 3 s", took)
	}
	if resp.StatusCode != 200 || !strings.Contains(strings.Join(first, "\n"), ": the agent is working") {
		t.Errorf("status %d, first lines %q", resp.StatusCode, first)
	}
	var rest strings.Builder
	for sc.Scan() {
		rest.WriteString(sc.Text() + "\n")
	}
	if !strings.Contains(rest.String(), `"content":"fini`) || !strings.Contains(rest.String(), "[DONE]") {
		t.Errorf("the answer did not follow: %s", rest.String())
	}
}
