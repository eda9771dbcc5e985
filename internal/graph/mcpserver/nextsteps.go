package mcpserver

import (
	"github.com/etalab-ia/albert-code/internal/graph/changes"
	"github.com/etalab-ia/albert-code/internal/graph/query"
)

// NextStep is a follow-up question an answer suggests, as the exact tool call
// that asks it: an agent can copy it without reading the tool list again.
type NextStep struct {
	Why       string         `json:"why"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// maxNextSteps bounds the hints of one answer. Judgement: past three, the hints
// cost more tokens than the choices they save.
const maxNextSteps = 3

// steps collects the hints of one answer, leaving out tools the profile hides
// (a hint the agent cannot follow is worse than none) and repeats.
type steps struct {
	profile Profile
	list    []NextStep
}

func (h *handler) steps() *steps { return &steps{profile: h.cfg.Profile} }

// fullOnly are the tools only the full profile lists.
var fullOnly = map[string]bool{
	"get_definition": true, "find_callers": true, "find_callees": true, "find_references": true,
	"find_implementations": true, "trace_process": true, "get_entry_points": true, "get_cochange": true,
	"get_communities": true,
}

func (s *steps) add(why, tool string, args map[string]any) *steps {
	if len(s.list) >= maxNextSteps || (s.profile == Core && fullOnly[tool]) {
		return s
	}
	for _, st := range s.list {
		if st.Tool == tool && sameArgs(st.Arguments, args) {
			return s
		}
	}
	s.list = append(s.list, NextStep{Why: why, Tool: tool, Arguments: args})
	return s
}

func sameArgs(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// done returns the hints, nil when there are none (the field is then left out).
func (s *steps) done() []NextStep {
	if len(s.list) == 0 {
		return nil
	}
	return s.list
}

// page suggests the next page of a truncated list, with the same arguments.
func (s *steps) page(tool string, args map[string]any, p Page) *steps {
	if p.NextOffset == nil {
		return s
	}
	next := map[string]any{"offset": *p.NextOffset}
	for k, v := range args {
		next[k] = v
	}
	return s.add("next page", tool, next)
}

// questionSteps are the hints after a question about symbol whose items were
// found: the usual next question for each kind.
func (h *handler) questionSteps(kind, symbol string, found []Item, p Page, tool string) []NextStep {
	s := h.steps()
	s.page(tool, map[string]any{"symbol": symbol}, p)
	if len(found) == 0 {
		if kind == "callers" || kind == "references" {
			s.add("none direct; dependents through interfaces?", "get_impact", map[string]any{"symbol": symbol})
		}
		return s.done()
	}
	first := found[0].QName
	switch kind {
	case "callers", "references":
		s.add("all its dependents, transitively", "get_impact", map[string]any{"symbol": symbol})
		s.add("callers of the first caller", "find_callers", map[string]any{"symbol": first})
	case "callees":
		s.add("the first callee in context", "get_context", map[string]any{"symbol": first})
	case "implementations":
		s.add("who calls through it", "find_callers", map[string]any{"symbol": symbol})
	case "definition":
		s.add("it in context", "get_context", map[string]any{"symbol": first})
		s.add("its dependents", "get_impact", map[string]any{"symbol": first})
	case "impact":
		s.add("the first dependent in context", "get_context", map[string]any{"symbol": first})
	case "process":
		s.add("the first function it runs, in context", "get_context", map[string]any{"symbol": first})
	case "context":
		s.add("its dependents, transitively", "get_impact", map[string]any{"symbol": symbol})
	}
	return s.done()
}

// searchSteps point from the best hit to the questions about it.
func (h *handler) searchSteps(query string, found []Item, p Page) []NextStep {
	s := h.steps()
	if len(found) > 0 {
		s.add("the best hit in context", "get_context", map[string]any{"symbol": found[0].QName})
		s.add("callers of the best hit", "find_callers", map[string]any{"symbol": found[0].QName})
	}
	s.page("search_codebase", map[string]any{"query": query}, p)
	return s.done()
}

// changesSteps point from a diff's riskiest definition and first process to
// the questions a reviewer asks next.
func (h *handler) changesSteps(rep *changes.Report) []NextStep {
	s := h.steps()
	var riskiest *changes.Changed
	for i := range rep.Changed {
		if riskiest == nil || rep.Changed[i].RiskScore > riskiest.RiskScore {
			riskiest = &rep.Changed[i]
		}
	}
	if riskiest != nil {
		s.add("dependents of the riskiest change", "get_impact", map[string]any{"symbol": riskiest.QName})
	}
	if len(rep.Processes) > 0 {
		s.add("the first affected process", "trace_process", map[string]any{"symbol": rep.Processes[0].Entry})
	}
	if riskiest != nil {
		s.add("direct callers of the riskiest change", "find_callers", map[string]any{"symbol": riskiest.QName})
	}
	return s.done()
}

// impactSteps page through the hops and point at the first dependent.
func (h *handler) impactSteps(in ImpactParams, nextHop int, found []Item, p Page) []NextStep {
	s := h.steps()
	args := map[string]any{"symbol": in.Symbol}
	if in.Depth > 0 {
		args["depth"] = in.Depth
	}
	if in.FromHop > 0 {
		args["from_hop"] = in.FromHop
	}
	if in.ToHop > 0 {
		args["to_hop"] = in.ToHop
	}
	s.page("get_impact", args, p)
	if nextHop > 0 {
		s.add("the hops past these", "get_impact", map[string]any{"symbol": in.Symbol, "from_hop": nextHop})
	}
	if len(found) > 0 {
		s.add("the first dependent in context", "get_context", map[string]any{"symbol": found[0].QName})
	}
	return s.done()
}

// entrySteps suggest tracing the first program entry (main), else the first entry.
func (h *handler) entrySteps(all []Item, p Page) []NextStep {
	s := h.steps()
	for _, it := range all {
		if it.Why == "program entry (main)" {
			s.add("what the program runs", "trace_process", map[string]any{"symbol": it.QName})
			break
		}
	}
	if len(all) > 0 {
		s.add("what the first entry point runs", "trace_process", map[string]any{"symbol": all[0].QName})
	}
	s.page("get_entry_points", map[string]any{}, p)
	return s.done()
}

// communitySteps open the largest community shown through its most connected member.
func (h *handler) communitySteps(in CommunitiesParams, shown []query.Community, p Page) []NextStep {
	s := h.steps()
	if in.Symbol == "" && len(shown) > 0 && len(shown[0].Members) > 0 {
		top := shown[0].Members[0].QName
		s.add("the members of the largest community shown", "get_communities", map[string]any{"symbol": top})
		s.add("its most connected member's neighbourhood", "get_context", map[string]any{"symbol": top})
	}
	s.page("get_communities", map[string]any{}, p)
	return s.done()
}
