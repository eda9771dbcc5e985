package app

import (
	"fmt"
	"io"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// printMessage renders one message of a saved session for `sessions show`.
func printMessage(w io.Writer, m llm.Message) {
	label := string(m.Role)
	switch {
	case m.Summary:
		label = "summary"
	case m.Synthetic:
		label += " (automatic)"
	case m.Role == llm.RoleTool:
		label = "result of " + m.ToolName
		if m.IsError {
			label += " (error)"
		}
	}
	fmt.Fprintf(w, "── %s\n", label)
	if m.Reasoning != "" {
		fmt.Fprintf(w, "[reasoning] %s\n", strings.TrimSpace(m.Reasoning))
	}
	if m.Content != "" {
		fmt.Fprintln(w, strings.TrimRight(m.Content, "\n"))
	}
	for _, c := range m.ToolCalls {
		fmt.Fprintf(w, "→ %s %s\n", c.Name, c.Arguments)
	}
	fmt.Fprintln(w)
}
