package agenttool

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/etalab-ia/albert-code/internal/graph/changes"
	"github.com/etalab-ia/albert-code/internal/graph/compact"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// changesQuestion maps the workspace's uncommitted edits (or those since a
// revision) onto the definitions they touch, with their risk: what a model asks
// before it says its work is done. It is not a query kind: it reads git.
const changesQuestion = "changes"

// questions are the values of code_graph's question: the engine's and changes.
func questions() []string {
	return append(slices.Clone(query.Kinds), changesQuestion)
}

// changesListCap bounds the communities and processes a changes answer lists
// (their counts are whole). Judgement: the first ten, programs and tests first,
// say where to look; the rest costs tokens the changed definitions need more.
const changesListCap = 10

// changesAnswer is what the model reads for the changes question.
type changesAnswer struct {
	*changes.Report
	ChangedTotal int        `json:"changed_total,omitempty"`
	Note         string     `json:"note,omitempty"`
	NextSteps    []NextStep `json:"next_steps,omitempty"`
	Index        Refresh    `json:"index"`
}

// answerChanges runs the changes question against base (empty: HEAD) on the
// refreshed index st, whose lines are the working tree's.
func (g *graphTool) answerChanges(ctx context.Context, st *store.Store, base string, r Refresh, shape compact.Shape) (tool.Result, error) {
	hunks, err := changes.Diff(ctx, g.cfg.Root, base)
	if err != nil {
		if ctx.Err() != nil {
			return tool.Result{}, ctx.Err()
		}
		return tool.Errorf("%v", err), nil
	}
	rep, err := changes.Map(ctx, st, base, hunks)
	if err != nil {
		return tool.Result{}, fmt.Errorf("code_graph changes %s: %w", base, err)
	}
	// Riskiest first: when the answer is cut, what is left out matters least.
	all := slices.Clone(rep.Changed)
	slices.SortStableFunc(all, func(a, b changes.Changed) int { return cmp.Compare(b.RiskScore, a.RiskScore) })
	var steps []NextStep
	if len(all) > 0 {
		steps = append(steps, NextStep{Why: "dependents of the riskiest change", Tool: Name,
			Arguments: map[string]any{"question": "impact", "symbol": all[0].QName}})
	}
	encode := func(n int) string {
		cut := *rep
		cut.Changed = all[:n]
		// The counts stay whole; the lists are what the model reads first.
		cut.Processes = rep.Processes[:min(len(rep.Processes), changesListCap)]
		cut.Communities = rep.Communities[:min(len(rep.Communities), changesListCap)]
		out := changesAnswer{Report: &cut, NextSteps: steps, Index: r}
		if n < len(all) {
			out.ChangedTotal = len(all)
			out.Note = fmt.Sprintf("only the %d riskiest of %d changed definitions fit; ask with detail ids for all their names", n, len(all))
		}
		b, err := json.Marshal(shape.Apply(out))
		if err != nil {
			panic(err) // strings, numbers and slices of them
		}
		return string(b)
	}
	if s := encode(len(all)); len(s) <= g.cfg.MaxOutputBytes {
		return tool.Result{Output: s}, nil
	}
	n := sort.Search(len(all), func(n int) bool { return len(encode(n+1)) > g.cfg.MaxOutputBytes })
	s, _ := tool.Cap(encode(n), g.cfg.MaxOutputBytes)
	return tool.Result{Output: s, Truncated: true}, nil
}
