package ratelimit

import (
	"log/slog"
	"os"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
)

var pid = os.Getpid()

// requestChars counts the characters a request sends that the server tokenizes:
// messages, reasoning, tool calls and tool schemas. Converted to tokens with the
// model's calibrated ratio, it predicts the request's input tokens before sending.
func requestChars(req llm.Request) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.Reasoning) + len(m.ToolName)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	return n
}

// canonOf is the model part of an account|model key.
func canonOf(key string) string {
	_, model, _ := strings.Cut(key, "|")
	return model
}

// logErr reports a state file that could not be updated after a call: the call's
// own outcome matters more, so it is not turned into an error.
func (l *Layer) logErr(err error) {
	if err != nil {
		slog.Warn("rate-limit state not updated", "err", err)
	}
}
