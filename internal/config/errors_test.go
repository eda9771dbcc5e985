package config

import (
	"strings"
	"testing"
)

func TestBadInputIsReportedWhereItIs(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		env     map[string]string
		wantAll []string // {file} is replaced by the file's path
	}{
		{"syntax error", "model = \"qwen\"\ncompaction = [\n", nil, []string{"{file}:2:"}},
		{"type error names the key", "[compaction]\nthreshold = \"high\"\n", nil,
			[]string{"{file}:2", "compaction.threshold", "expected a number"}},
		{"unknown key with suggestion", "modle = \"qwen\"\n", nil,
			[]string{"{file}:1", "modle", `did you mean "model"`}},
		{"unknown nested key", "[[providers]]\nname = \"x\"\nbase_ulr = \"http://a\"\n", nil,
			[]string{"{file}:3", "providers.base_ulr", `did you mean "base_url"`}},
		{"bad permission", "[tools.bash]\npermission = \"sometimes\"\n", nil,
			[]string{"{file}:2", "tools.bash.permission", "always, ask or never"}},
		{"misspelt tool key", "[tools.write]\npermision = \"always\"\n", nil,
			[]string{"{file}:2", `did you mean "permission"`}},
		{"bad provider kind", "[[providers]]\nname = \"x\"\nkind = \"openai\"\n", nil,
			[]string{"{file}:3", "providers.x.kind", "openai"}},
		{"unknown provider reference", "[[models]]\nname = \"m\"\nprovider = \"albrt\"\n", nil,
			[]string{"{file}:3", "models.m.provider", `did you mean "albert"`}},
		{"unknown active model", "model = \"gpt\"\n", nil, []string{"{file}:1", "unknown model", "qwen"}},
		{"bad tool pattern", "enabled_tools = [\"re:(\"]\n", nil, []string{"{file}:1", "enabled_tools"}},
		{"duration as integer", "[bash]\ntimeout = 5\n", nil, []string{"{file}:2", "bash.timeout", "expected a string"}},
		{"bad duration", "[bash]\ntimeout = \"5 minutes\"\n", nil, []string{"{file}:2", "bash.timeout", "invalid duration"}},
		{"bad provider timeout", "[[providers]]\nname = \"albert\"\ntimeout = \"-3s\"\n", nil,
			[]string{"{file}:3", "providers.albert.timeout", "positive"}},
		{"backend with a suggestion", "[web_search]\nbackend = \"searxg\"\n", nil,
			[]string{"{file}:2: web_search.backend: invalid value \"searxg\"", `did you mean "searxng"`}},
		{"notification method with a suggestion", "[notifications]\nmethod = \"termnal\"\n", nil,
			[]string{"{file}:2: notifications.method:", `did you mean "terminal"`}},
		{"negative model price", "[[models]]\nname = \"m\"\noutput_price = -1.0\n", nil,
			[]string{"{file}:3: models.m.output_price: must not be negative"}},
		{"bad MCP sampling", "[mcp_servers.s]\ncommand = \"x\"\nsampling = \"maybe\"\n", nil,
			[]string{"{file}:3: mcp_servers.s.sampling: invalid sampling mode", "want ask, allow or deny"}},
		{"bad rate-limit tier", "[rate_limits]\ntier = \"exx\"\n", nil,
			[]string{"{file}:2: rate_limits.tier: invalid tier \"exx\""}},
		{"bad env duration", "", map[string]string{EnvBashTimeout: "soon"}, []string{"env " + EnvBashTimeout, "invalid duration"}},
		{"bad env number", "", map[string]string{EnvContextWarning: "lots"}, []string{"env " + EnvContextWarning, "expected a number"}},
		{"env fraction out of range", "", map[string]string{EnvCompactionThresh: "80"}, []string{"env " + EnvCompactionThresh, "between 0 and 1"}},
		{"bad env base url", "", map[string]string{EnvBaseURL: "albert.example"}, []string{"env " + EnvBaseURL, "http://"}},
		{"unknown model in env", "", map[string]string{EnvModel: "nope"}, []string{"env " + EnvModel, "unknown model"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			file := s.globalFile()
			if tt.file != "" {
				write(t, file, tt.file)
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			_, err := Load(Options{WorkDir: s.work})
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, want := range tt.wantAll {
				want = strings.ReplaceAll(want, "{file}", file)
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}
