package config

import (
	"errors"
	"strings"
	"testing"
)

// fakeLister answers for the albert provider and records which providers it was asked for.
type fakeLister struct {
	models []ServerModel
	err    error
	asked  []string
	urls   []string
	keys   []string
}

func (f *fakeLister) list(p Provider, key string, _ bool) ([]ServerModel, error) {
	f.asked = append(f.asked, p.Name)
	f.urls = append(f.urls, p.BaseURL)
	f.keys = append(f.keys, key)
	if p.Name != "albert" && p.Name != "ollama" {
		return nil, errors.New("fakeLister serves albert and ollama only, asked for " + p.Name)
	}
	return f.models, f.err
}

var albertServes = []ServerModel{
	{ID: "openai/gpt-oss-120b", Aliases: []string{"gpt-oss"}, ContextWindow: 131072},
	{ID: "Qwen/Qwen3.6-27B", Aliases: []string{"albert-code"}},
}

func (s sandbox) loadListing(t *testing.T, f *fakeLister, ov Overrides) (*Config, error) {
	t.Helper()
	return Load(Options{WorkDir: s.work, Overrides: ov, ListModels: f.list})
}

func TestConfiguredModelAsksNoServer(t *testing.T) {
	s := newSandbox(t)
	t.Setenv("ALBERT_API_KEY", "k")
	f := &fakeLister{models: albertServes}
	c, err := s.loadListing(t, f, Overrides{Model: "qwen"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Model("deepseek-flash"); err != nil {
		t.Fatal(err)
	}
	if len(f.asked) != 0 {
		t.Fatalf("asked %v for configured models; a configured model must cost no request", f.asked)
	}
}

func TestServerOnlyModelAndAliasResolveToCanonicalID(t *testing.T) {
	s := newSandbox(t)
	t.Setenv("ALBERT_API_KEY", "k")
	f := &fakeLister{models: albertServes}
	c, err := s.loadListing(t, f, Overrides{Model: "gpt-oss"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.ActiveModel()
	if err != nil {
		t.Fatal(err)
	}
	if m.WireName != "openai/gpt-oss-120b" || m.Provider != "albert" || m.ContextWindow != 131072 {
		t.Fatalf("model = %+v, want albert's openai/gpt-oss-120b with its listed window", m)
	}
	// Only providers with a key are asked: not openai (no key), not the shipped
	// llamacpp entry nor ollama (keyless, not in the user's configuration).
	for _, p := range f.asked {
		if p != "albert" {
			t.Fatalf("asked %v, want albert only", f.asked)
		}
	}
	if f.keys[0] != "k" {
		t.Fatalf("key passed = %q", f.keys[0])
	}
}

func TestServerAliasOfConfiguredWireNameKeepsConfiguredEntry(t *testing.T) {
	s := newSandbox(t)
	t.Setenv("ALBERT_API_KEY", "k")
	write(t, s.globalFile(), "[[models]]\nname = \"qwen\"\nprovider = \"albert\"\nwire_name = \"Qwen/Qwen3.6-27B\"\ninput_price = 1.5\n")
	c, err := s.loadListing(t, &fakeLister{models: albertServes}, Overrides{Model: "albert-code"})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := c.ActiveModel()
	if m.Name != "qwen" || m.InputPrice != 1.5 {
		t.Fatalf("model = %+v, want the configured qwen entry (its price) for the server's alias", m)
	}
}

func TestUnknownModelErrorNamesServerModels(t *testing.T) {
	s := newSandbox(t)
	t.Setenv("ALBERT_API_KEY", "k")
	_, err := s.loadListing(t, &fakeLister{models: albertServes}, Overrides{Model: "nope-model"})
	if err == nil {
		t.Fatal("Load accepted a model neither configured nor listed")
	}
	for _, want := range []string{`unknown model "nope-model"`, "mistral-medium", "the albert server serves openai/gpt-oss-120b (gpt-oss), Qwen/Qwen3.6-27B (albert-code)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

func TestUnreadableListIsNamedAndConfiguredModelsStillLoad(t *testing.T) {
	s := newSandbox(t)
	t.Setenv("ALBERT_API_KEY", "k")
	f := &fakeLister{err: errors.New("model list of albert unavailable: GET x/models answered 404 Not Found")}
	_, err := s.loadListing(t, f, Overrides{Model: "gpt-oss"})
	if err == nil || !strings.Contains(err.Error(), "model list of albert unavailable") {
		t.Fatalf("err = %v, want the list's failure named", err)
	}
	if _, err := s.loadListing(t, f, Overrides{Model: "qwen"}); err != nil {
		t.Fatalf("a configured model failed because the list is unavailable: %v", err)
	}
}

func TestBaseURLOverrideIsWhereServerModelsAreLookedUp(t *testing.T) {
	s := newSandbox(t)
	t.Setenv("ALBERT_API_KEY", "k")
	f := &fakeLister{models: albertServes}
	c, err := s.loadListing(t, f, Overrides{Model: "openai/gpt-oss-120b", BaseURL: "http://127.0.0.1:9/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if f.urls[0] != "http://127.0.0.1:9/v1" {
		t.Fatalf("asked %v, want the overridden base URL", f.urls)
	}
	if p, _ := c.Provider("albert"); p.BaseURL != "http://127.0.0.1:9/v1" {
		t.Fatalf("albert's base URL = %q, want the override", p.BaseURL)
	}
}

func TestServerModelsOffersListedModelsNotConfigured(t *testing.T) {
	s := newSandbox(t)
	t.Setenv("ALBERT_API_KEY", "k")
	listed := append([]ServerModel{{ID: "mistralai/Mistral-Medium-3.5-128B"}}, albertServes...)
	c, err := s.loadListing(t, &fakeLister{models: listed}, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range c.ServerModels() {
		ids = append(ids, m.WireName)
	}
	if strings.Join(ids, ",") != "openai/gpt-oss-120b" {
		t.Fatalf("ServerModels = %v, want the listed models no configured entry (mistral-medium, qwen) stands for", ids)
	}
}

func TestKeylessServerOfUsersOwnModelIsAsked(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), "[[models]]\nname = \"llama\"\nprovider = \"ollama\"\nwire_name = \"llama3.2\"\n")
	f := &fakeLister{models: []ServerModel{{ID: "qwen2.5-coder:7b"}}}
	c, err := s.loadListing(t, f, Overrides{Model: "qwen2.5-coder:7b"})
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := c.ActiveModel(); m.Provider != "ollama" || m.WireName != "qwen2.5-coder:7b" || strings.Trim(strings.ReplaceAll(strings.Join(f.asked, ","), "ollama", ""), ",") != "" {
		t.Fatalf("model = %+v after asking %v; want ollama's listed model, asking ollama only", m, f.asked)
	}
}
