package config

import (
	"strings"
	"testing"
)

func TestEachLayerOverridesTheOneBelow(t *testing.T) {
	type setup struct{ global, project, env, flag bool }
	tests := []struct {
		name       string
		setup      setup
		wantModel  string
		wantSource func(s sandbox) string
	}{
		{"default", setup{}, "mistral-medium", func(sandbox) string { return "default" }},
		{"global file", setup{global: true}, "qwen", func(s sandbox) string { return s.globalFile() + ":2" }},
		{"project file", setup{global: true, project: true}, "deepseek-flash", func(s sandbox) string { return s.projectFile(".albert-code.toml") + ":1" }},
		{"environment", setup{global: true, project: true, env: true}, "devstral-small", func(sandbox) string { return "env ALBERT_CODE_MODEL" }},
		{"flag", setup{global: true, project: true, env: true, flag: true}, "local", func(sandbox) string { return "flag --model" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			var ov Overrides
			if tt.setup.global {
				write(t, s.globalFile(), "# global\nmodel = \"qwen\"\n")
			}
			if tt.setup.project {
				write(t, s.projectFile(".albert-code.toml"), "model = \"deepseek-flash\"\n")
			}
			if tt.setup.env {
				t.Setenv(EnvModel, "devstral-small")
			}
			if tt.setup.flag {
				ov.Model = "local"
			}
			c := s.load(t, ov)
			if c.ModelName != tt.wantModel {
				t.Errorf("model = %q, want %q", c.ModelName, tt.wantModel)
			}
			if got, want := source(t, c, "model"), tt.wantSource(s); got != want {
				t.Errorf("source = %q, want %q", got, want)
			}
		})
	}
}

func TestSectionsAndListsFromEveryLayer(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), `enabled_tools = ["read", "grep"]
[compaction]
threshold = 0.7
[bash]
timeout = "90s"
[tools.bash]
permission = "never"
timeout = 30
`)
	write(t, s.projectFile(".albert-code.toml"), `enabled_tools = ["re:web_.*"]
[tools.bash]
permission = "ask"
deny = ["/etc/**"]
`)
	t.Setenv(EnvCompactionThresh, "0.6")
	c := s.load(t, Overrides{DisabledTools: []string{"web_fetch"}})

	if got := strings.Join(c.EnabledTools, ","); got != "re:web_.*" {
		t.Errorf("enabled_tools = %q: a later layer's list must replace, not extend", got)
	}
	if c.Compaction.Threshold != 0.6 || source(t, c, "compaction.threshold") != "env "+EnvCompactionThresh {
		t.Errorf("compaction.threshold = %v from %s", c.Compaction.Threshold, source(t, c, "compaction.threshold"))
	}
	if c.Compaction.KeepRecentTurns != 2 || source(t, c, "compaction.keep_recent_turns") != "default" {
		t.Errorf("keep_recent_turns = %d, want the default 2", c.Compaction.KeepRecentTurns)
	}
	if c.Bash.Timeout.String() != "1m30s" {
		t.Errorf("bash.timeout = %v", c.Bash.Timeout)
	}
	bash := c.Tool("bash")
	if bash.Permission != PermissionAsk || bash.Options["timeout"] != int64(30) || len(bash.Deny) != 1 {
		t.Errorf("tools.bash = %+v", bash)
	}
	if got, want := source(t, c, "tools.bash.timeout"), s.globalFile()+":8"; got != want {
		t.Errorf("tools.bash.timeout from %s, want %s", got, want)
	}
	if got, want := source(t, c, "tools.bash.permission"), s.projectFile(".albert-code.toml")+":3"; got != want {
		t.Errorf("tools.bash.permission from %s, want %s", got, want)
	}
	if source(t, c, "disabled_tools") != "flag --disabled-tools" {
		t.Errorf("disabled_tools from %s", source(t, c, "disabled_tools"))
	}
}

func TestVibeTomlIsReadBelowAlbertCodeToml(t *testing.T) {
	s := newSandbox(t)
	vibe := write(t, s.projectFile(".vibe.toml"), `active_model = "coder"
vim_keybindings = true

[[providers]]
name = "albert"
api_base = "https://vibe.example/v1"

[[models]]
name = "Qwen/Qwen3-Coder-30B-A3B-Instruct"
provider = "albert"
alias = "coder"
`)
	c := s.load(t, Overrides{})
	m, err := c.ActiveModel()
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "coder" || m.WireName != "Qwen/Qwen3-Coder-30B-A3B-Instruct" {
		t.Errorf("active model = %+v, want alias coder for the Qwen wire id", m)
	}
	if got, want := source(t, c, "providers.albert.base_url"), vibe+":6"; got != want {
		t.Errorf("base_url from %s, want %s (the api_base line)", got, want)
	}

	albert := write(t, s.projectFile(".albert-code.toml"), "model = \"qwen\"\n")
	c = s.load(t, Overrides{})
	if c.ModelName != "qwen" || source(t, c, "model") != albert+":1" {
		t.Errorf(".albert-code.toml must win over .vibe.toml in the same folder: model %q from %s", c.ModelName, source(t, c, "model"))
	}
	if len(c.Files) != 2 || c.Files[0] != vibe {
		t.Errorf("files read = %v, want .vibe.toml first", c.Files)
	}
}

func TestProvidersAndModelsMergeByName(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), `
[[providers]]
name = "albert"
base_url = "https://albert.example/v1"
headers = { X-Team = "a" }

[[providers]]
name = "vllm"
base_url = "http://10.0.0.1:8000/v1"

[[models]]
name = "qwen"
context_window = 1000
aliases = ["q"]

[[models]]
name = "mine"
provider = "vllm"
`)
	c := s.load(t, Overrides{})
	albert, err := c.Provider("albert")
	if err != nil {
		t.Fatal(err)
	}
	if albert.BaseURL != "https://albert.example/v1" || albert.APIKeyEnv != "ALBERT_API_KEY" || !albert.XMLToolCalls {
		t.Errorf("albert = %+v: fields the file does not set must keep their defaults", albert)
	}
	if source(t, c, "providers.albert.api_key_env") != "default" || source(t, c, "providers.albert.base_url") != s.globalFile()+":4" {
		t.Error("per-field sources not recorded for a merged provider")
	}
	vllm, err := c.Provider("vllm")
	if err != nil || vllm.Kind != KindOpenAICompatible {
		t.Errorf("new provider vllm = %+v, %v", vllm, err)
	}
	q, err := c.Model("qwen")
	if err != nil || q.ContextWindow != 1000 || q.WireName != "Qwen/Qwen3.6-27B" {
		t.Errorf("qwen = %+v, %v", q, err)
	}
	mine, err := c.Model("mine")
	if err != nil || mine.WireName != "mine" {
		t.Errorf("new model's wire name must default to its name: %+v, %v", mine, err)
	}
	if n := len(c.Models); n != 6 {
		t.Errorf("%d models, want 5 defaults + 1", n)
	}
}

func TestBaseURLOverridesOnlyTheActiveProvider(t *testing.T) {
	tests := []struct {
		name, env, flag, model, want, wantSrc string
	}{
		{"env", "http://env.example/v1", "", "", "http://env.example/v1", "env " + EnvBaseURL},
		{"flag beats env", "http://env.example/v1", "http://flag.example/v1", "", "http://flag.example/v1", "flag --base-url"},
		{"follows the active model", "", "http://127.0.0.1:9/v1", "local", "http://127.0.0.1:9/v1", "flag --base-url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			t.Setenv(EnvBaseURL, tt.env)
			c := s.load(t, Overrides{BaseURL: tt.flag, Model: tt.model})
			m, _ := c.ActiveModel()
			p, _ := c.Provider(m.Provider)
			if p.BaseURL != tt.want || source(t, c, "providers."+p.Name+".base_url") != tt.wantSrc {
				t.Errorf("%s base_url = %q from %s", p.Name, p.BaseURL, source(t, c, "providers."+p.Name+".base_url"))
			}
			other := "mistral"
			if o, _ := c.Provider(other); o.BaseURL != "https://api.mistral.ai/v1" {
				t.Errorf("inactive provider changed: %q", o.BaseURL)
			}
		})
	}
}

func TestUntrustedProjectIsSkipped(t *testing.T) {
	s := newSandbox(t)
	p := write(t, s.projectFile(".albert-code.toml"), "model = \"qwen\"\n")
	c, err := Load(Options{WorkDir: s.work, Trusted: func(string) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	if c.ModelName != "mistral-medium" || len(c.Skipped) != 1 || c.Skipped[0] != p {
		t.Errorf("model %q, skipped %v: an untrusted project file must not be read", c.ModelName, c.Skipped)
	}
}

func TestGraphEmbeddingsSettings(t *testing.T) {
	s := newSandbox(t)
	c := s.load(t, Overrides{})
	if c.Graph.EmbeddingsModel != "" {
		t.Errorf("embeddings are on by default: %q", c.Graph.EmbeddingsModel)
	}
	write(t, s.globalFile(), "[graph]\nembeddings_model = \"bge-m3\"\nembeddings_provider = \"albert\"\n")
	c = s.load(t, Overrides{})
	if c.Graph.EmbeddingsModel != "bge-m3" || c.Graph.EmbeddingsProvider != "albert" {
		t.Errorf("graph = %+v", c.Graph)
	}
	if got, want := source(t, c, "graph.embeddings_model"), s.globalFile()+":2"; got != want {
		t.Errorf("graph.embeddings_model from %s, want %s", got, want)
	}
	t.Setenv(EnvEmbeddingsModel, "qwen3-embed")
	if c = s.load(t, Overrides{}); c.Graph.EmbeddingsModel != "qwen3-embed" {
		t.Errorf("env did not win: %q", c.Graph.EmbeddingsModel)
	}
}
