package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpTools maps engine questions to the full profile's MCP tools.
var mcpTools = map[string]string{
	Callers:         "find_callers",
	Callees:         "find_callees",
	References:      "find_references",
	Implementations: "find_implementations",
}

// mcpClient asks questions through `albert-code graph mcp` and counts what an
// agent would read: the text of every tool result, every page of it.
type mcpClient struct {
	sess  *mcp.ClientSession
	chars int
	calls int
}

func startMCP(ctx context.Context, bin, repo string) (*mcpClient, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "graphacc", Version: "v1"}, nil)
	cmd := exec.Command(bin, "graph", "mcp", "--repo", repo, "--profile", "full")
	sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("start %s graph mcp: %w", bin, err)
	}
	return &mcpClient{sess: sess}, nil
}

func (m *mcpClient) close() error { return m.sess.Close() }

// ask calls the question's tool and follows next_offset to the last page, as an
// agent wanting the whole answer must.
func (m *mcpClient) ask(ctx context.Context, question, symbol string) (*Answer, error) {
	tool, ok := mcpTools[question]
	if !ok {
		return nil, fmt.Errorf("no MCP tool answers %q", question)
	}
	all := &Answer{}
	offset := 0
	for page := 0; ; page++ {
		res, err := m.sess.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"symbol": symbol, "offset": offset}})
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", tool, symbol, err)
		}
		var text strings.Builder
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				text.WriteString(t.Text)
			}
		}
		m.chars += text.Len()
		m.calls++
		var a Answer
		if err := json.Unmarshal([]byte(text.String()), &a); err != nil {
			return nil, fmt.Errorf("%s %s: read the result: %w", tool, symbol, err)
		}
		if res.IsError {
			if strings.Contains(a.Error, "no definition named") {
				return nil, errUnknown
			}
			return nil, fmt.Errorf("%s %s: %s", tool, symbol, text.String())
		}
		if page == 0 {
			all.Targets = a.Targets
		}
		for _, it := range a.Items {
			all.Items = append(all.Items, mcpSites(it)...)
		}
		if a.NextOffset == nil {
			return all, nil
		}
		offset = *a.NextOffset
	}
}

// TokenSummary compares, for one kind, the characters read through the MCP
// tools and by the grep-and-read baseline, each with its F1 on the same
// questions. Tokens are about characters / 4 (codegraph-eval §5.7).
type TokenSummary struct {
	Kind         string  `json:"kind"`
	Questions    int     `json:"questions"`
	EngineChars  int     `json:"engine_chars"`
	EngineMedian int     `json:"engine_median"`
	EngineP90    int     `json:"engine_p90"`
	EngineCalls  int     `json:"engine_calls"`
	EngineF1     float64 `json:"engine_f1"`
	// EngineAmbiguous is the part of EngineChars spent on a first call by bare
	// name that named several definitions, before asking again by qualified name.
	EngineAmbiguous int     `json:"engine_ambiguous_chars"`
	BaselineChars   int     `json:"baseline_chars"`
	BaselineMedian  int     `json:"baseline_median"`
	BaselineP90     int     `json:"baseline_p90"`
	BaselineF1      float64 `json:"baseline_f1"`
	Ratio           float64 `json:"ratio"` // baseline characters / engine characters
}

// measureTokens asks every sampled question again, through MCP and through the
// baseline, counting characters and scoring both answers.
func measureTokens(ctx context.Context, bin, dir string, ix *index, questions map[string][]Question) ([]TokenSummary, error) {
	m, err := startMCP(ctx, bin, dir)
	if err != nil {
		return nil, err
	}
	defer m.close()
	bl, err := newBaseline(ctx, dir, ix.t.Language)
	if err != nil {
		return nil, err
	}
	var out []TokenSummary
	for _, kind := range Kinds {
		qs := questions[kind]
		if len(qs) == 0 {
			continue
		}
		s := TokenSummary{Kind: kind, Questions: len(qs)}
		var eChars, bChars []int
		calls := m.calls
		for _, q := range qs {
			var perCall []int
			counted := func(ctx context.Context, question, symbol string) (*Answer, error) {
				before := m.chars
				a, err := m.ask(ctx, question, symbol)
				perCall = append(perCall, m.chars-before)
				return a, err
			}
			items, note, err := askAbout(ctx, counted, engineQuestion(kind), q.About)
			if err != nil {
				return nil, err
			}
			total := 0
			for _, n := range perCall {
				total += n
			}
			if len(perCall) > 1 {
				s.EngineAmbiguous += perCall[0]
			}
			eChars = append(eChars, total)
			s.EngineF1 += ix.score(q, items, note).F1
			bItems, n, err := bl.answer(ctx, kind, q.About)
			if err != nil {
				return nil, err
			}
			bChars = append(bChars, n)
			s.BaselineF1 += ix.score(q, bItems, "").F1
		}
		s.EngineCalls = m.calls - calls
		s.EngineF1 /= float64(len(qs))
		s.BaselineF1 /= float64(len(qs))
		s.EngineChars, s.EngineMedian, s.EngineP90 = spread(eChars)
		s.BaselineChars, s.BaselineMedian, s.BaselineP90 = spread(bChars)
		if s.EngineChars > 0 {
			s.Ratio = float64(s.BaselineChars) / float64(s.EngineChars)
		}
		out = append(out, s)
	}
	return out, nil
}

// spread is the total, the median and the 90th percentile (nearest rank).
func spread(xs []int) (total, median, p90 int) {
	s := append([]int(nil), xs...)
	sort.Ints(s)
	for _, x := range s {
		total += x
	}
	if len(s) == 0 {
		return 0, 0, 0
	}
	rank := func(p float64) int {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return total, rank(0.5), rank(0.9)
}

func writeTokenTable(w io.Writer, runs []*Run) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "corpus\tkind\tn\tMCP chars\tambiguous\tmedian\tp90\tcalls\tF1\tbaseline chars\tmedian\tp90\tF1\tratio\t")
	for _, r := range runs {
		for _, s := range r.Tokens {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.3f\t%d\t%d\t%d\t%.3f\t%.1f×\t\n", r.Corpus, s.Kind, s.Questions,
				s.EngineChars, s.EngineAmbiguous, s.EngineMedian, s.EngineP90, s.EngineCalls, s.EngineF1,
				s.BaselineChars, s.BaselineMedian, s.BaselineP90, s.BaselineF1, s.Ratio)
		}
	}
	return tw.Flush()
}

// mcpSites undoes what MCP leaves out of an item, one item per site as the
// command line writes them: site_file when the site is in the item's own file,
// site_line when the site is the definition itself, and the further sites
// gathered in more_sites.
func mcpSites(it Item) []Item {
	if it.SiteFile == "" {
		it.SiteFile = it.File
		if it.SiteLine == 0 {
			it.SiteLine = it.Line
		}
	}
	more := it.MoreSites
	it.MoreSites = nil
	out := []Item{it}
	for _, l := range more {
		it.SiteLine = l
		out = append(out, it)
	}
	return out
}
