package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// albertListing is a fake server listing two models the configuration does not have.
func albertListing(t *testing.T, turns ...fakemodel.Turn) *harness {
	t.Helper()
	h := newHarness(t)
	h.srv = fakemodel.NewTest(t, fakemodel.Script{
		Models: []fakemodel.Model{
			{ID: "openai/gpt-oss-120b", Aliases: []string{"gpt-oss"}, MaxContextLength: 131072},
			{ID: "Qwen/Qwen3-Coder-30B-A3B-Instruct", Aliases: []string{"openweight-code"}},
		},
		Turns: turns,
	})
	return h
}

// chatModels returns the model of every chat request, and how many model lists were asked.
func (h *harness) chatModels() (models []string, lists int) {
	for _, r := range h.srv.Requests() {
		switch {
		case strings.HasSuffix(r.Path, "/models"):
			lists++
		case strings.HasSuffix(r.Path, "/chat/completions"):
			m, _ := r.JSON["model"].(string)
			models = append(models, m)
		}
	}
	return models, lists
}

func TestModelOnlyTheServerListsWorksWithModelFlag(t *testing.T) {
	h := albertListing(t, text("from gpt-oss"), text("from the alias"))
	if r := h.run("-p", "--model", "openai/gpt-oss-120b", "hi"); r.code != 0 || !strings.Contains(r.stdout, "from gpt-oss") {
		t.Fatalf("id: code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if r := h.run("-p", "--model", "gpt-oss", "hi"); r.code != 0 || !strings.Contains(r.stdout, "from the alias") {
		t.Fatalf("alias: code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	models, lists := h.chatModels()
	if strings.Join(models, ",") != "openai/gpt-oss-120b,openai/gpt-oss-120b" {
		t.Fatalf("wire models %v: the alias must be sent as the server's canonical id", models)
	}
	if lists != 1 {
		t.Fatalf("%d model list requests, want 1: the second run must use the cache", lists)
	}
}

func TestConfiguredModelCostsNoModelListRequest(t *testing.T) {
	h := albertListing(t, text("configured"))
	if r := h.run("-p", "--model", "qwen", "hi"); r.code != 0 {
		t.Fatalf("code %d\nstderr %s", r.code, r.stderr)
	}
	if models, lists := h.chatModels(); lists != 0 || len(models) != 1 || models[0] != "Qwen/Qwen3.6-27B" {
		t.Fatalf("chat models %v, %d model lists; want qwen's configured wire name and no list request", models, lists)
	}
}

func TestUnknownModelNamesTheServersModels(t *testing.T) {
	h := albertListing(t)
	r := h.run("-p", "--model", "gpt-17", "hi")
	if r.code != ExitUsage {
		t.Fatalf("code %d, want %d\nstderr %s", r.code, ExitUsage, r.stderr)
	}
	for _, want := range []string{`unknown model "gpt-17"`, "mistral-medium", "the albert server serves openai/gpt-oss-120b (gpt-oss), Qwen/Qwen3-Coder-30B-A3B-Instruct (openweight-code)"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not name %q:\n%s", want, r.stderr)
		}
	}
}

func TestServerWithoutModelListGivesNoticeAndConfiguredModelWorks(t *testing.T) {
	h := albertListing(t, text("still works"))
	target, err := url.Parse(strings.TrimSuffix(h.srv.URL(), "/v1"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	noList := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/models") {
			http.NotFound(w, r)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer noList.Close()
	runVia := func(args ...string) result {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := h.command(ctx, args...)
		cmd.Env = append(cmd.Env, "ALBERT_CODE_BASE_URL="+noList.URL+"/v1")
		return runToEnd(t, ctx, cmd, args)
	}
	r := runVia("-p", "--model", "gpt-oss", "hi")
	if r.code != ExitUsage || strings.Count(r.stderr, "notice: model list of albert unavailable") != 1 || !strings.Contains(r.stderr, "404") {
		t.Fatalf("code %d, want %d and one notice naming the 404\nstderr %s", r.code, ExitUsage, r.stderr)
	}
	r = runVia("-p", "hi")
	if r.code != 0 || !strings.Contains(r.stdout, "still works") {
		t.Fatalf("configured model: code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}
