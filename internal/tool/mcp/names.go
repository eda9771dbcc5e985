package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxToolName is the longest tool name OpenAI-compatible servers, Anthropic and
// Gemini all accept (64 characters of [a-zA-Z0-9_-]).
const maxToolName = 64

// toolName is the name the model sees for the server's tool: "<server>_<tool>",
// with every character providers refuse turned into "_". A name cut to fit, or one
// that collides with a name already taken, ends with a short hash of the original
// so it stays unique and stable from run to run.
func toolName(server, tool string, taken map[string]bool) string {
	name := sanitize(server + "_" + tool)
	if len(name) > maxToolName || taken[name] {
		sum := sha256.Sum256([]byte(server + "\x00" + tool))
		suffix := "_" + hex.EncodeToString(sum[:])[:8]
		if len(name) > maxToolName-len(suffix) {
			name = name[:maxToolName-len(suffix)]
		}
		name += suffix
	}
	taken[name] = true
	return name
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
}
