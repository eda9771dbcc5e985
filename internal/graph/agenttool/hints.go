package agenttool

import (
	"context"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/graph/artifact"
	"github.com/etalab-ia/albert-code/internal/graph/query"
)

// NextStep is a follow-up question an answer suggests, as the exact code_graph
// call that asks it.
type NextStep struct {
	Why       string         `json:"why"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// hints are the usual next questions after p's answer a, from what it found;
// none when it found nothing to follow. Two at most: each costs tokens.
func hints(p Params, a *query.Answer) []NextStep {
	if len(a.Items) == 0 {
		return nil
	}
	first := a.Items[0].QName
	ask := func(why, question, symbol string) NextStep {
		return NextStep{Why: why, Tool: Name, Arguments: map[string]any{"question": question, "symbol": symbol}}
	}
	switch p.Question {
	case "callers", "references":
		return []NextStep{ask("all its dependents, transitively", "impact", p.Symbol), ask("callers of the first caller", "callers", first)}
	case "callees":
		return []NextStep{ask("the first callee in context", "context", first)}
	case "implementations":
		return []NextStep{ask("who calls through it", "callers", p.Symbol)}
	case "definition", "search":
		return []NextStep{ask("the first result in context", "context", first), ask("its callers", "callers", first)}
	case "impact", "process":
		return []NextStep{ask("the first one in context", "context", first)}
	case "context":
		return []NextStep{ask("its dependents, transitively", "impact", p.Symbol)}
	}
	return nil
}

// bootstrap starts a workspace that has no index from the artifact its team
// committed (artifact.RelPath), so the first question waits only for what
// changed since. It says what happened, for the answer's index block.
func (g *graphTool) bootstrap(ctx context.Context, path string) string {
	m, err := artifact.Bootstrap(ctx, g.cfg.Root, path)
	switch {
	case err != nil:
		return fmt.Sprintf("%v; indexed from scratch", err)
	case m != nil:
		return fmt.Sprintf("started from %s (%d files, commit %.12s), then indexed what changed since", artifact.RelPath, len(m.Files), m.Commit)
	}
	return ""
}
