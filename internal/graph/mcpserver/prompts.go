package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/changes"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Prompt list caps. Judgement: a prompt is read in full by the model before it
// calls anything; these keep it near 2,000 tokens on a large repository, and
// every list says how many it left out and which tool gives the rest.
const (
	promptEntries     = 10
	promptCommunities = 8
	promptMembers     = 3
	promptChanged     = 30
	promptProcesses   = 10
	promptMatches     = 5
)

// addPrompts registers the peer's two core prompts: a guided tour of the code
// and a review of a change's impact, each filled from the index so the model
// starts with facts and the exact tool calls to go further.
func (h *handler) addPrompts(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{Name: "explore_codebase", Title: "Explore the codebase",
		Description: "A tour of the repository from its code graph: what the index holds, where execution enters, how the code clusters, and the tool calls to go deeper.",
		Arguments: []*mcp.PromptArgument{{Name: "focus",
			Description: "words or a symbol to centre the tour on (optional)"}}},
		h.explorePrompt)
	s.AddPrompt(&mcp.Prompt{Name: "review_change_impact", Title: "Review a change's impact",
		Description: "Review the working tree's diff against a revision: the definitions it touches with their risk score, the communities and processes it reaches, and the tool calls that check each.",
		Arguments: []*mcp.PromptArgument{{Name: "base",
			Description: "revision the working tree is compared with (default HEAD)"}}},
		h.reviewPrompt)
}

// promptText is a prompt's result: one user message.
func promptText(description, text string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{Description: description,
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}
}

// callText writes a tool call as the model should make it.
func callText(tool string, args map[string]any) string {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err) // strings and numbers only
	}
	return fmt.Sprintf("`%s %s`", tool, b)
}

// has reports whether the profile lists tool.
func (h *handler) has(tool string) bool { return h.cfg.Profile != Core || !fullOnly[tool] }

// openForPrompt opens the index; without one the prompt itself says what to do.
func (h *handler) openForPrompt(name string) (*store.Store, *mcp.GetPromptResult, error) {
	st, err := h.open()
	if errors.Is(err, errNoIndex) {
		return nil, promptText(name, "The repository "+h.cfg.Root+" has no code graph index yet. Call "+
			callText("analyze_codebase", map[string]any{})+" first, then ask for this prompt again."), nil
	}
	return st, nil, err
}

func (h *handler) freshnessLine(ctx context.Context, st *store.Store) string {
	f := h.freshness(ctx, st)
	switch f.Status {
	case "fresh":
		if f.IndexedCommit == "" {
			return "The index is fresh."
		}
		return "The index is fresh (indexed at commit " + short(f.IndexedCommit) + ")."
	case "stale":
		return fmt.Sprintf("The index is stale: %d file(s) changed since it was built. Call %s first.",
			f.DirtyCount, callText("analyze_codebase", map[string]any{}))
	}
	return "The index's freshness is unknown (" + f.Error + ")."
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

func (h *handler) explorePrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	const name = "explore_codebase"
	focus := strings.TrimSpace(req.Params.Arguments["focus"])
	st, none, err := h.openForPrompt(name)
	if st == nil {
		return none, err
	}
	defer st.Close()
	stats, err := st.Stats(ctx)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Explore the code of %s with the code graph tools of this server rather than by reading files one by one. "+
		"Every answer says whether it is exact or a lower bound; trust absence only when it says exact.\n\n", h.cfg.Root)
	fmt.Fprintf(&b, "## The index\n%d files, %d definitions, %d edges (%d call sites unresolved). %s\n",
		stats.Files, stats.NodeCount, stats.EdgeCount, stats.Unresolved, h.freshnessLine(ctx, st))

	entries, err := query.EntryPoints(ctx, st)
	if err != nil {
		return nil, err
	}
	mains := exploreEntries(&b, entries)

	comms, err := query.Communities(ctx, st, "", query.CommunityOptions{Limit: promptCommunities, Members: promptMembers})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "\n## How the code clusters (%d communities, a heuristic)\n", comms.Count)
	for _, c := range comms.Communities {
		var names []string
		for _, m := range c.Members {
			names = append(names, "`"+m.QName+"`")
		}
		fmt.Fprintf(&b, "- %s: %d symbols; most connected: %s\n", c.Name, c.Size, strings.Join(names, ", "))
	}
	if comms.Count > len(comms.Communities) && h.has("get_communities") {
		fmt.Fprintf(&b, "- ... %d more: %s\n", comms.Count-len(comms.Communities), callText("get_communities", map[string]any{"offset": len(comms.Communities)}))
	}

	var hits []query.Item
	if focus != "" {
		a, err := query.Search(ctx, st, focus, query.SearchOptions{Vectors: h.cfg.Vectors, Limit: promptMatches})
		if err != nil {
			return nil, err
		}
		hits = a.Items
		fmt.Fprintf(&b, "\n## Matches for %q\n", focus)
		for _, it := range hits {
			fmt.Fprintf(&b, "- `%s` (%s, %s:%d)\n", it.QName, it.Kind, it.File, it.Line)
		}
		if len(hits) == 0 {
			fmt.Fprintf(&b, "None: try other words with %s.\n", callText("search_codebase", map[string]any{"query": "..."}))
		}
	}

	b.WriteString("\n## Suggested path\n")
	n := 0
	step := func(why, tool string, args map[string]any) {
		if h.has(tool) {
			n++
			fmt.Fprintf(&b, "%d. %s: %s\n", n, callText(tool, args), why)
		}
	}
	if len(hits) > 0 {
		step("the best match with its callers, callees and members", "get_context", map[string]any{"symbol": hits[0].QName})
		step("what depends on it", "get_impact", map[string]any{"symbol": hits[0].QName})
	}
	if len(mains) > 0 {
		step("what the program runs, three calls deep", "trace_process", map[string]any{"symbol": mains[0]})
	}
	if len(comms.Communities) > 0 && len(comms.Communities[0].Members) > 0 {
		top := comms.Communities[0].Members[0].QName
		step("the largest community's members", "get_communities", map[string]any{"symbol": top})
		step("its most connected symbol in context", "get_context", map[string]any{"symbol": top})
	}
	step("for a concept you do not know the name of", "search_codebase", map[string]any{"query": "..."})
	b.WriteString("\nThen summarise the architecture in a few lines: the main components (communities), how they depend on each other, where execution starts, and what you could not confirm.\n")
	return promptText(name, b.String()), nil
}

// exploreEntries writes the entry points, programs first, and returns the mains.
func exploreEntries(b *strings.Builder, a *query.Answer) []string {
	byWhy := map[string]int{}
	var mains []string
	for _, it := range a.Items {
		byWhy[it.Why]++
		if it.Why == "program entry (main)" {
			mains = append(mains, it.QName)
		}
	}
	var kinds []string
	for why, n := range byWhy {
		kinds = append(kinds, fmt.Sprintf("%d %s", n, why))
	}
	slices.Sort(kinds)
	fmt.Fprintf(b, "\n## Where execution enters (%d entry points, a heuristic: %s)\n", len(a.Items), strings.Join(kinds, "; "))
	shown := slices.Clone(a.Items)
	slices.SortStableFunc(shown, func(x, y query.Item) int { return cmp.Compare(entryRank(x.Why), entryRank(y.Why)) })
	for _, it := range shown[:min(len(shown), promptEntries)] {
		fmt.Fprintf(b, "- `%s` (%s:%d): %s\n", it.QName, it.File, it.Line, it.Why)
	}
	return mains
}

func entryRank(why string) int {
	switch {
	case strings.Contains(why, "main"):
		return 0
	case strings.Contains(why, "exported"):
		return 1
	case strings.Contains(why, "init"):
		return 2
	}
	return 3
}

func (h *handler) reviewPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	const name = "review_change_impact"
	base := strings.TrimSpace(req.Params.Arguments["base"])
	st, none, err := h.openForPrompt(name)
	if st == nil {
		return none, err
	}
	defer st.Close()
	hunks, err := changes.Diff(ctx, h.cfg.Root, base)
	if err != nil {
		return nil, err
	}
	rep, err := changes.Map(ctx, st, base, hunks)
	if err != nil {
		return nil, err
	}
	if base == "" {
		base = "HEAD"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Review the impact of the changes in %s against %s. %s\n\n", h.cfg.Root, base, h.freshnessLine(ctx, st))
	if len(rep.Changed) == 0 {
		fmt.Fprintf(&b, "The diff touches no definition the index holds (%d file(s) changed", len(rep.Files))
		if len(rep.Unmapped) > 0 {
			fmt.Fprintf(&b, "; not in the index: %s", strings.Join(rep.Unmapped, ", "))
		}
		b.WriteString("). Review those files directly.\n")
		return promptText(name, b.String()), nil
	}
	fmt.Fprintf(&b, "Risk score %.2f (%s). %s\n", rep.RiskScore, rep.Risk, rep.Heuristic)

	changed := slices.Clone(rep.Changed)
	slices.SortStableFunc(changed, func(x, y changes.Changed) int { return cmp.Compare(y.RiskScore, x.RiskScore) })
	fmt.Fprintf(&b, "\n## Changed definitions, riskiest first (%d)\n", len(changed))
	for _, c := range changed[:min(len(changed), promptChanged)] {
		var notes []string
		if c.Factors.PublicAPI {
			notes = append(notes, "exported")
		}
		if !c.Factors.Tested {
			notes = append(notes, "no test among its dependents")
		}
		if c.Factors.CommunitiesCrossed > 1 {
			notes = append(notes, fmt.Sprintf("felt in %d communities", c.Factors.CommunitiesCrossed))
		}
		fmt.Fprintf(&b, "- `%s` (%s:%d): %d changed line(s), %d dependent(s), risk %.2f %s", c.QName, c.File, c.Line, c.Lines, c.Dependents, c.RiskScore, c.Risk)
		if len(notes) > 0 {
			fmt.Fprintf(&b, "; %s", strings.Join(notes, ", "))
		}
		b.WriteString("\n")
	}
	if len(changed) > promptChanged {
		fmt.Fprintf(&b, "- ... %d more: %s\n", len(changed)-promptChanged, callText("detect_changes", map[string]any{"base": base}))
	}
	if len(rep.Communities) > 0 {
		fmt.Fprintf(&b, "\n## Communities reached (%d)\n", rep.CommunitiesCount)
		for _, c := range rep.Communities[:min(len(rep.Communities), promptCommunities)] {
			fmt.Fprintf(&b, "- %s: %d changed, %d dependent(s)\n", c.Name, c.Changed, c.Dependents)
		}
	}
	if len(rep.Processes) > 0 {
		fmt.Fprintf(&b, "\n## Processes reached (%d entry points whose calls reach a change)\n", rep.ProcessesCount)
		for _, p := range rep.Processes[:min(len(rep.Processes), promptProcesses)] {
			fmt.Fprintf(&b, "- `%s` (%s) reaches %s\n", p.Entry, p.Why, strings.Join(p.Reaches, ", "))
		}
	}
	if len(rep.Unmapped) > 0 {
		fmt.Fprintf(&b, "\nChanged files the index has no definitions for (review them directly): %s\n", strings.Join(rep.Unmapped, ", "))
	}

	b.WriteString("\n## How to review\nFor each changed definition, riskiest first:\n")
	top := changed[0].QName
	fmt.Fprintf(&b, "1. %s: check that each dependent still holds with the change (signature, behaviour, errors).\n",
		callText("get_impact", map[string]any{"symbol": top}))
	callers := "find_callers"
	if !h.has(callers) {
		callers = "get_symbol"
	}
	fmt.Fprintf(&b, "2. %s: the direct callers, with their call sites.\n", callText(callers, map[string]any{"symbol": top}))
	if len(rep.Processes) > 0 && h.has("trace_process") {
		fmt.Fprintf(&b, "3. %s: what the affected flow runs, to judge the change end to end.\n",
			callText("trace_process", map[string]any{"symbol": rep.Processes[0].Entry}))
	}
	b.WriteString("\nAnswer with a verdict per definition (safe, needs a change elsewhere, needs a test), the evidence for it " +
		"(the tool answers, and whether they were exact or a lower bound), then an overall verdict; name the test to add where no test reaches a change.\n")
	return promptText(name, b.String()), nil
}
