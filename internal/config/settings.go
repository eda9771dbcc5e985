package config

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
	"github.com/etalab-ia/albert-code/internal/notify"
)

// SettingKind says how a setting's value is typed, checked and written.
type SettingKind int

const (
	KindText SettingKind = iota
	KindBool
	// KindFraction is a number in (0, 1], or [0, 1] when ZeroOff.
	KindFraction
	// KindInt is a whole number from Min to Max (no bound when Max is 0).
	KindInt
	// KindDuration is a Go duration string ("90s", "5m").
	KindDuration
	// KindChoice is one of Choices.
	KindChoice
	// KindModel names a model the configuration or a server's list knows.
	KindModel
	// KindProfile names an agent profile; the face checks it, since profiles are
	// files the configuration does not read.
	KindProfile
)

// Effect says when a saved setting changes what the running program does.
type Effect int

const (
	// EffectNow: the face switches the running session to it (model, agent).
	EffectNow Effect = iota
	// EffectReload: the session applies it once reopened (/reload).
	EffectReload
	// EffectRestart: it is read once, at start.
	EffectRestart
)

// Setting is one key that /config edits: the settings a user changes often. The
// rest (providers, models, tools, MCP servers, hooks) is edited in the file.
type Setting struct {
	// Key is the dotted key, as in the file ("compaction.threshold").
	Key  string
	Help string
	Kind SettingKind
	// Choices are the values of a KindChoice setting, the first being the default.
	Choices  []string
	Min, Max int
	// ZeroOff lets a fraction be 0, meaning off.
	ZeroOff bool
	// GlobalOnly settings are refused in a project file, which the repository's
	// authors control.
	GlobalOnly bool
	Effect     Effect
	// value is the merged value as text.
	value func(c *Config) string
	// valid, for a KindText setting, checks a value other than "" (which turns it
	// off); wants says in words what it accepts.
	valid func(v string) bool
	wants string
}

// Settings lists what /config edits, in the order the editor shows them.
var Settings = []Setting{
	{Key: "model", Help: "Model used when none is chosen (--model, /model)", Kind: KindModel, Effect: EffectNow,
		value: func(c *Config) string { return c.ModelName }},
	{Key: "agent", Help: "Agent profile used when none is chosen (--agent, /agent)", Kind: KindProfile, Effect: EffectNow,
		value: func(c *Config) string { return c.Agent }},
	{Key: "compaction.threshold", Help: "Summarise the history when this fraction of the context window is used", Kind: KindFraction, Effect: EffectReload,
		value: func(c *Config) string { return formatFloat(c.Compaction.Threshold) }},
	{Key: "compaction.keep_recent_turns", Help: "Turns kept verbatim after a summary", Kind: KindInt, Effect: EffectReload,
		value: func(c *Config) string { return strconv.Itoa(c.Compaction.KeepRecentTurns) }},
	{Key: "context_warning", Help: "Warn once at this fraction of the context window (0: off)", Kind: KindFraction, ZeroOff: true, Effect: EffectReload,
		value: func(c *Config) string { return formatFloat(c.ContextWarning) }},
	{Key: "auto_continue", Help: "Send the model back to work this many times when it stops with open todos (0: off)", Kind: KindInt, Max: maxAutoContinue, Effect: EffectReload,
		value: func(c *Config) string { return strconv.Itoa(c.AgentLoop.AutoContinue) }},
	{Key: "project_context", Help: "Describe the folder and its git state in the system prompt", Kind: KindBool, Effect: EffectReload,
		value: func(c *Config) string { return strconv.FormatBool(c.AgentLoop.ProjectContext) }},
	{Key: "system_prompt_id", Help: "prompts/<id>.md replaces the built-in base prompt (empty: built-in)", Kind: KindText, Effect: EffectReload,
		value: func(c *Config) string { return c.AgentLoop.SystemPromptID },
		valid: promptID.MatchString, wants: `the name of a prompts/ file without its .md, or "" for the built-in prompt`},
	{Key: "auto_fallback_enabled", Help: "Move a rate-limited model's calls to its fallback_model", Kind: KindBool, Effect: EffectReload,
		value: func(c *Config) string { return strconv.FormatBool(!c.RateLimits.NoAutoFallback) }},
	{Key: "rate_limits.enabled", Help: "Pace calls to the models' rate limits", Kind: KindBool, Effect: EffectReload,
		value: func(c *Config) string { return strconv.FormatBool(!c.RateLimits.Off) }},
	{Key: "rate_limits.tier", Help: "Albert tier of the shipped limits", Kind: KindChoice, Choices: []string{"exp", "prod"}, Effect: EffectReload,
		value: func(c *Config) string { return cmp.Or(c.RateLimits.Tier, "exp") }},
	{Key: "rate_limits.max_wait", Help: "Longest wait for a rate limit before a call fails", Kind: KindDuration, Effect: EffectReload,
		value: func(c *Config) string { return c.RateLimits.MaxWaitOrDefault().String() }},
	{Key: "bash.timeout", Help: "Default timeout of a bash command", Kind: KindDuration, Effect: EffectReload,
		value: func(c *Config) string { return c.Bash.Timeout.String() }},
	{Key: "web_search.base_url", Help: "Your SearXNG instance (empty: no web_search)", Kind: KindText, Effect: EffectReload,
		value: func(c *Config) string { return c.WebSearch.BaseURL },
		valid: isHTTPURL, wants: `an http:// or https:// URL, or "" to turn web_search off`},
	{Key: "session.enabled", Help: "Write session logs", Kind: KindBool, Effect: EffectRestart,
		value: func(c *Config) string { return strconv.FormatBool(c.Session.Enabled) }},
	{Key: "notifications.enabled", Help: "Desktop notification when a long turn ends or an approval waits, while the terminal has no focus", Kind: KindBool, Effect: EffectRestart,
		value: func(c *Config) string { return strconv.FormatBool(c.Notifications.Enabled) }},
	{Key: "notifications.method", Help: "How to notify: the terminal's escape sequence or notify-send", Kind: KindChoice, Choices: notify.Methods, Effect: EffectRestart,
		value: func(c *Config) string { return c.Notifications.Method }},
	{Key: "notifications.after", Help: "How long a turn must run before its end is notified", Kind: KindDuration, Effect: EffectRestart,
		value: func(c *Config) string { return c.Notifications.After.String() }},
	{Key: "update_check", Help: "Ask the release feed, once a day, whether a newer version exists", Kind: KindBool, GlobalOnly: true, Effect: EffectRestart,
		value: func(c *Config) string { return strconv.FormatBool(c.Update.Enabled) }},
	{Key: "sandbox.mode", Help: "Confine the commands tools start (off: all your rights)", Kind: KindChoice, Choices: []string{"on", "off"}, GlobalOnly: true, Effect: EffectRestart,
		value: func(c *Config) string { return cmp.Or(c.Sandbox.Mode, "on") }},
	{Key: "sandbox.network", Help: "Network for confined commands (auto: only when they may write)", Kind: KindChoice, Choices: []string{"auto", "on", "off"}, GlobalOnly: true, Effect: EffectRestart,
		value: func(c *Config) string { return cmp.Or(c.Sandbox.Network, "auto") }},
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func isHTTPURL(v string) bool {
	return strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://")
}

// LookupSetting finds the setting called key; the error lists those /config edits.
func LookupSetting(key string) (Setting, error) {
	for _, s := range Settings {
		if s.Key == key {
			return s, nil
		}
	}
	keys := make([]string, len(Settings))
	for i, s := range Settings {
		keys[i] = s.Key
	}
	msg := fmt.Sprintf("unknown setting %q", key)
	if near := tomlfile.Suggest(key, keys); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return Setting{}, fmt.Errorf("%s: /config sets %s; edit the file for the others (docs/configuration.md)", msg, strings.Join(keys, ", "))
}

// Allowed says in words what the setting accepts, for errors and the editor.
func (s Setting) Allowed() string {
	switch s.Kind {
	case KindBool:
		return "true or false"
	case KindFraction:
		if s.ZeroOff {
			return "a fraction from 0 (off) to 1, such as 0.5"
		}
		return "a fraction above 0 and at most 1, such as 0.8"
	case KindInt:
		if s.Max > 0 {
			return fmt.Sprintf("a whole number from %d to %d", s.Min, s.Max)
		}
		return fmt.Sprintf("a whole number from %d", s.Min)
	case KindDuration:
		return `a duration such as "90s" or "5m"`
	case KindChoice:
		return "one of " + strings.Join(s.Choices, ", ")
	case KindModel:
		return "a model name, alias or wire name (/model lists them)"
	case KindProfile:
		return "an agent profile name (/agent lists them)"
	case KindText:
		if s.wants != "" {
			return s.wants
		}
	}
	return "a string"
}

// SettingValue is a setting as this run sees it.
type SettingValue struct {
	Setting
	// Value is the merged value as text.
	Value  string
	Source Source
}

// SettingValues returns every setting of Settings with its value and source.
func (c *Config) SettingValues() []SettingValue {
	out := make([]SettingValue, 0, len(Settings))
	for _, s := range Settings {
		src, _ := c.Source(s.Key)
		out = append(out, SettingValue{Setting: s, Value: c.settingText(s.Key), Source: src})
	}
	return out
}

// settingText is the merged value of the setting called key, as text.
func (c *Config) settingText(key string) string {
	for _, s := range Settings {
		if s.Key == key {
			return s.value(c)
		}
	}
	return ""
}
