package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/modellist"
)

// contestant is one program that plays the session.
type contestant struct {
	name string
	// command returns the program for one run against the fake at baseURL;
	// home is a fresh directory that it may populate.
	command func(baseURL, home string) (program, error)
	// answer extracts the final assistant text from the process's stdout.
	answer func(stdout []byte) (string, error)
}

// program is an absolute argv and the whole environment it runs with.
type program struct {
	argv, env []string
}

// baseEnv is the whole environment of a contestant: nothing of the caller's
// leaks in (API keys, proxies, config dirs), so every run starts from the same
// empty home.
func baseEnv(home string, extra ...string) []string {
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C.UTF-8"}, extra...)
}

// albertCode runs our binary; extraEnv (the -albert-env flag) adds variables such
// as ALBERT_CODE_SESSION_ENABLED=false, to measure what a feature costs.
func albertCode(bin string, extraEnv []string) contestant {
	return albertCodeAs("albert-code", bin, extraEnv, modelName, false)
}

// albertCodeListed runs our binary with a model only the server lists (none of
// the configuration's), its list already in the fresh home's cache as a previous
// run would have left it: what a cache hit costs on the path of a run.
func albertCodeListed(bin string, extraEnv []string) contestant {
	return albertCodeAs("albert-code-listed", bin, extraEnv, fakemodel.DefaultModelID, true)
}

func albertCodeAs(name, bin string, extraEnv []string, model string, seedModelList bool) contestant {
	return contestant{
		name: name,
		command: func(baseURL, home string) (program, error) {
			// Headless mode refuses tools that would need approval; pi runs bash
			// unasked, so allow bash here the narrowest way, in the user config.
			cfg := filepath.Join(home, ".config", "albert-code", "config.toml")
			if err := writeFile(cfg, "[tools.bash]\npermission = \"always\"\n"); err != nil {
				return program{}, err
			}
			if seedModelList {
				l := &modellist.Lister{Dir: filepath.Join(home, ".albert-code", "cache", "models")}
				if err := l.Seed(baseURL, []modellist.Model{{ID: model}}); err != nil {
					return program{}, fmt.Errorf("seed the model list cache: %w", err)
				}
			}
			return program{
				argv: []string{bin, "-p", prompt, "--output", "json",
					"--base-url", baseURL, "--model", model, "--trust"},
				// Any key works against the fake; the default provider reads this one.
				env: baseEnv(home, append([]string{"ALBERT_API_KEY=agentbench"}, extraEnv...)...),
			}, nil
		},
		answer: func(stdout []byte) (string, error) {
			var sum struct {
				Type  string `json:"type"`
				Text  string `json:"text"`
				Error string `json:"error"`
			}
			lines := bytes.Split(bytes.TrimSpace(stdout), []byte("\n"))
			if err := json.Unmarshal(lines[len(lines)-1], &sum); err != nil {
				return "", fmt.Errorf("decode --output json summary: %w", err)
			}
			if sum.Type != "result" || sum.Error != "" {
				return "", fmt.Errorf("summary type %q, error %q", sum.Type, sum.Error)
			}
			return sum.Text, nil
		},
	}
}

// piModels registers the fake as an OpenAI-compatible provider, as pi's
// docs/models.md describes; the compat flags stop pi from sending the
// developer role and reasoning_effort, which a plain chat server need not know.
const piModels = `{"providers": {"agentbench": {
  "baseUrl": %q, "api": "openai-completions", "apiKey": "agentbench",
  "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
  "models": [{"id": %q, "reasoning": false, "contextWindow": 131072}]}}}
`

func pi(node, cli string) contestant {
	return contestant{
		name: "pi",
		command: func(baseURL, home string) (program, error) {
			models := filepath.Join(home, ".pi", "agent", "models.json")
			if err := writeFile(models, fmt.Sprintf(piModels, baseURL, modelName)); err != nil {
				return program{}, err
			}
			return program{
				// node runs cli.js itself (no npx or shell wrapper), so the
				// measured process is the agent.
				argv: []string{node, cli, "-p", "--provider", "agentbench", "--model", modelName, prompt},
				// PI_OFFLINE disables every start-up network call: version and package
				// update checks and install telemetry (pi docs/usage.md, settings.md).
				env: baseEnv(home, "PI_OFFLINE=1"),
			}, nil
		},
		answer: func(stdout []byte) (string, error) { return string(stdout), nil },
	}
}

// floor is this very program in floor-client mode: see floor.go.
func floor(self string) contestant {
	return contestant{
		name: "floor",
		command: func(baseURL, home string) (program, error) {
			return program{argv: []string{self, "-floor-client", baseURL}, env: baseEnv(home)}, nil
		},
		answer: func(stdout []byte) (string, error) { return string(stdout), nil },
	}
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("make %s: %w", filepath.Dir(path), err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
