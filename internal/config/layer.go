package config

// layer is one file (or the defaults, the environment, the flags) in the config file
// schema. Pointers and pointers to slices tell "not set here" from "set to zero", which
// merging needs: a layer overrides only what it sets.
type layer struct {
	Model          *string                   `toml:"model"`
	Agent          *string                   `toml:"agent"`
	Providers      []providerLayer           `toml:"providers"`
	Models         []modelLayer              `toml:"models"`
	EnabledTools   *[]string                 `toml:"enabled_tools"`
	DisabledTools  *[]string                 `toml:"disabled_tools"`
	Tools          map[string]map[string]any `toml:"tools"`
	Compaction     *compactionLayer          `toml:"compaction"`
	ContextWarning *float64                  `toml:"context_warning"`
	Session        *sessionLayer             `toml:"session"`
	WebFetch       *webFetchLayer            `toml:"web_fetch"`
	WebSearch      *webSearchLayer           `toml:"web_search"`
	Bash           *bashLayer                `toml:"bash"`
	Graph          *graphLayer               `toml:"graph"`
	RateLimits     *rateLimitsLayer          `toml:"rate_limits"`
	// AutoFallback is the original's top-level auto_fallback_enabled.
	AutoFallback *bool                     `toml:"auto_fallback_enabled"`
	MCPServers   map[string]mcpServerLayer `toml:"mcp_servers"`
	Hooks        *hooksLayer               `toml:"hooks"`
	Skills       *skillsLayer              `toml:"skills"`
	Sandbox      *sandboxLayer             `toml:"sandbox"`
	Permissions  *permissionsLayer         `toml:"permissions"`
	// Notifications, update_check and update_feed: notifications.go.
	Notifications *notificationsLayer `toml:"notifications"`
	updateLayer
	agentLoopLayer
}

type graphLayer struct {
	EmbeddingsModel    *string `toml:"embeddings_model"`
	EmbeddingsProvider *string `toml:"embeddings_provider"`
}

type providerLayer struct {
	Name         *string            `toml:"name"`
	Kind         *string            `toml:"kind"`
	BaseURL      *string            `toml:"base_url"`
	APIKeyEnv    *string            `toml:"api_key_env"`
	Headers      *map[string]string `toml:"headers"`
	XMLToolCalls *bool              `toml:"xml_tool_calls"`
	Timeout      *string            `toml:"timeout"`
	// Project and Location are Vertex AI's; see Provider.
	Project  *string `toml:"project"`
	Location *string `toml:"location"`
}

type modelLayer struct {
	Name          *string   `toml:"name"`
	Provider      *string   `toml:"provider"`
	WireName      *string   `toml:"wire_name"`
	Aliases       *[]string `toml:"aliases"`
	ContextWindow *int      `toml:"context_window"`
	InputPrice    *float64  `toml:"input_price"`
	OutputPrice   *float64  `toml:"output_price"`
	FallbackModel *string   `toml:"fallback_model"`
	Temperature   *float64  `toml:"temperature"`
}

type compactionLayer struct {
	Threshold       *float64 `toml:"threshold"`
	KeepRecentTurns *int     `toml:"keep_recent_turns"`
}

type sessionLayer struct {
	Dir     *string `toml:"dir"`
	Enabled *bool   `toml:"enabled"`
}

type webFetchLayer struct {
	AllowPrivate *bool `toml:"allow_private"`
	MaxBytes     *int  `toml:"max_bytes"`
}

type webSearchLayer struct {
	Backend *string `toml:"backend"`
	BaseURL *string `toml:"base_url"`
}

type bashLayer struct {
	Timeout        *string `toml:"timeout"`
	MaxOutputBytes *int    `toml:"max_output_bytes"`
}
