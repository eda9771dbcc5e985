package agentenv

import (
	"fmt"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/anthropic"
	"github.com/etalab-ia/albert-code/internal/llm/mistral"
	"github.com/etalab-ia/albert-code/internal/llm/openaicompat"
	"github.com/etalab-ia/albert-code/internal/llm/vertex"
)

// wireProvider builds the client that speaks p's wire format, before any retry or
// rate-limit layer. key is the provider's secret: an API key, or for Vertex AI
// with a project an OAuth access token.
func (e *Env) wireProvider(p config.Provider, key string) (llm.Provider, error) {
	switch p.Kind {
	case config.KindOpenAICompatible:
		return openaicompat.New(openaicompat.Options{
			BaseURL: p.BaseURL, APIKey: key, ExtraHeaders: p.Headers, UserAgent: e.userAgent,
			XMLToolCalls: p.XMLToolCalls, Timeout: p.Timeout,
		}), nil
	case config.KindAnthropic:
		return anthropic.New(anthropic.Options{
			BaseURL: p.BaseURL, APIKey: key, ExtraHeaders: p.Headers, UserAgent: e.userAgent, Timeout: p.Timeout,
		}), nil
	case config.KindMistral:
		return mistral.New(mistral.Options{
			BaseURL: p.BaseURL, APIKey: key, ExtraHeaders: p.Headers, UserAgent: e.userAgent, Timeout: p.Timeout,
		}), nil
	case config.KindVertex:
		opts := vertex.Options{BaseURL: p.BaseURL, ExtraHeaders: p.Headers, UserAgent: e.userAgent, Timeout: p.Timeout}
		if p.Project != "" {
			opts.Project, opts.Location, opts.AccessToken = p.Project, p.Location, key
			if p.Location == "" {
				return nil, fmt.Errorf("provider %q: Vertex AI needs a location (such as europe-west9) beside project %q", p.Name, p.Project)
			}
		} else {
			if key == "" {
				return nil, fmt.Errorf("provider %q: set api_key_env to the variable holding a Gemini API key, or project and location for Vertex AI", p.Name)
			}
			opts.APIKey = key
		}
		return vertex.New(opts), nil
	}
	return nil, fmt.Errorf("provider %q is of kind %q, which this build cannot talk to", p.Name, p.Kind)
}
