package firstrun

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// ServerProvider is the provider name the setup screen gives a server the user typed.
const ServerProvider = "custom"

// ServerKeyEnv is the variable that holds that server's key, when it has one.
const ServerKeyEnv = "CUSTOM_API_KEY"

// The block the setup screen writes for a server of the user's own; running setup
// again replaces it, and nothing else of the file.
const (
	serverBegin = "# albert-code setup: your own server (begin; setup rewrites this block)"
	serverEnd   = "# albert-code setup: your own server (end)"
)

// Server is an OpenAI-compatible server the user typed on the setup screen.
type Server struct {
	URL, Model string
	// Key is empty for a server without one (Ollama, vLLM, llama.cpp on localhost).
	Key string
}

// CheckServerURL says what is wrong with a server URL the user typed, or nil.
func CheckServerURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("server URL %q: want http:// or https:// and a host, such as http://localhost:11434/v1", raw)
	}
	return nil
}

// SaveServer writes s: a provider and a model in configFile (the block between the
// setup markers, replaced if there), the model made the default, and the key, when
// there is one, in envFile.
func SaveServer(envFile, configFile string, s Server) error {
	if err := CheckServerURL(s.URL); err != nil {
		return err
	}
	model := strings.TrimSpace(s.Model)
	if model == "" || strings.ContainsAny(model, "\n\r") {
		return fmt.Errorf("model name %q: type the id the server serves (its /v1/models lists them)", s.Model)
	}
	block := []string{serverBegin, "[[providers]]", "name = " + strconv.Quote(ServerProvider),
		"kind = \"openai-compatible\"", "base_url = " + strconv.Quote(strings.TrimSpace(s.URL))}
	if strings.TrimSpace(s.Key) != "" {
		if err := Save(envFile, "", Choice{KeyEnv: ServerKeyEnv, Key: s.Key}); err != nil {
			return err
		}
		block = append(block, "api_key_env = "+strconv.Quote(ServerKeyEnv))
	}
	block = append(block, "", "[[models]]", "name = "+strconv.Quote(model), "provider = "+strconv.Quote(ServerProvider), serverEnd)
	lines, err := readLines(configFile)
	if err != nil {
		return fmt.Errorf("save the server in %s: %w", configFile, err)
	}
	lines = append(withoutBlock(lines), block...)
	if err := writeAtomic(configFile, lines, 0o644); err != nil {
		return fmt.Errorf("save the server in %s: %w", configFile, err)
	}
	return Save(envFile, configFile, Choice{Model: model})
}

// withoutBlock drops a block an earlier setup wrote.
func withoutBlock(lines []string) []string {
	var out []string
	in := false
	for _, l := range lines {
		switch {
		case l == serverBegin:
			in = true
		case l == serverEnd && in:
			in = false
		case !in:
			out = append(out, l)
		}
	}
	return out
}
