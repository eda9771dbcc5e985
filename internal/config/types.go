package config

import (
	"fmt"
	"time"
)

// ProviderKind selects the wire protocol spoken to a provider.
type ProviderKind string

const (
	// KindOpenAICompatible speaks POST /chat/completions: Albert, OpenAI, Ollama,
	// llama.cpp, vLLM.
	KindOpenAICompatible ProviderKind = "openai-compatible"
	KindAnthropic        ProviderKind = "anthropic"
	KindMistral          ProviderKind = "mistral"
	KindVertex           ProviderKind = "vertex"
)

var providerKinds = []string{string(KindOpenAICompatible), string(KindAnthropic), string(KindMistral), string(KindVertex)}

// Permission is the answer given to a tool call without asking, or "ask".
type Permission string

const (
	PermissionAlways Permission = "always"
	PermissionAsk    Permission = "ask"
	PermissionNever  Permission = "never"
)

var permissions = []string{string(PermissionAlways), string(PermissionAsk), string(PermissionNever)}

// ParsePermission checks s is one of always, ask, never.
func ParsePermission(s string) (Permission, error) {
	for _, p := range permissions {
		if s == p {
			return Permission(s), nil
		}
	}
	return "", fmt.Errorf("invalid permission %q: want always, ask or never", s)
}

// Provider is a server that answers model requests.
type Provider struct {
	Name    string
	Kind    ProviderKind
	BaseURL string
	// APIKeyEnv names the variable holding the key; empty for keyless local servers.
	APIKeyEnv string
	// Headers are sent with every request (for gateways that want an extra header).
	Headers map[string]string
	// XMLToolCalls turns on parsing of tool calls that the server leaves in the text
	// as <tool_call> XML (Qwen behind vLLM on Albert), see notes §3.8.
	XMLToolCalls bool
	// Timeout is the longest the server may stay silent, before its answer starts or
	// between two streamed chunks; zero means the client's default (5 minutes).
	Timeout time.Duration
	// Project and Location select Vertex AI for a provider of kind vertex, where
	// APIKeyEnv, when set, names a variable holding an OAuth access token (such as
	// the output of `gcloud auth print-access-token`) and, when empty, Application
	// Default Credentials are used; without a project the Gemini API is used, with
	// the key in APIKeyEnv.
	Project, Location string
}

// Model is one model a user can pick.
type Model struct {
	// Name is what users type (--model, /model).
	Name     string
	Provider string
	// WireName is the id the server knows; it defaults to Name.
	WireName string
	Aliases  []string
	// ContextWindow is the model's window in tokens; 0 when unknown.
	ContextWindow int
	// InputPrice and OutputPrice are in euros per million tokens.
	InputPrice, OutputPrice float64
	// FallbackModel is used while this one is rate limited; empty for none.
	FallbackModel string
	// Temperature is nil to leave the server's default.
	Temperature *float64
}

// ToolConfig is the [tools.<name>] table.
type ToolConfig struct {
	// Permission is empty when the config leaves the tool's own default.
	Permission Permission
	// Allow and Deny are path globs: a call touching only allowed paths runs without
	// asking, a call touching a denied path never runs. For bash they are command
	// prefixes ("git status") added to the built-in allow and deny lists.
	Allow, Deny []string
	// Options are the tool's own settings, passed through unchecked.
	Options map[string]any
}

// Compaction controls when history is summarised.
type Compaction struct {
	// Threshold is the fraction of the context window that triggers compaction.
	Threshold float64
	// KeepRecentTurns turns are kept verbatim after the summary.
	KeepRecentTurns int
}

// Session controls the session log.
type Session struct {
	Dir     string
	Enabled bool
}

// WebFetch limits the web_fetch tool.
type WebFetch struct {
	// AllowPrivate lets the tool reach loopback and private addresses.
	AllowPrivate bool
	MaxBytes     int
}

// WebSearch configures the web_search tool.
type WebSearch struct {
	Backend string
	BaseURL string
}

// Graph configures the code graph. Embeddings are off while EmbeddingsModel is
// empty: search then runs BM25 alone, and says so.
type Graph struct {
	// EmbeddingsModel is the wire name of an embeddings model (Albert: "bge-m3").
	EmbeddingsModel string
	// EmbeddingsProvider names the provider serving it; empty means the provider
	// of the active model.
	EmbeddingsProvider string
}

// Bash limits the bash tool.
type Bash struct {
	Timeout        time.Duration
	MaxOutputBytes int
}
