// Package changes maps a git diff onto the code graph: which definitions an edit
// touches, and how much of the code depends on each. The risk it gives is a
// heuristic, and every answer says so.
package changes

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Hunk is a range of changed lines in the new version of a file (for a deletion,
// the line the removed text stood before).
type Hunk struct {
	File       string
	Start, End int
}

// Changed is one definition an edit touches.
type Changed struct {
	query.Item
	// Lines counts the changed lines inside the definition.
	Lines int `json:"changed_lines"`
	// Dependents is how many definitions reach it within the impact depth.
	Dependents int `json:"dependents"`
	// RiskScore is in [0, 1]: the weighted factors below (see Score). Risk is its
	// band: low under 0.3, medium under 0.6, high from 0.6.
	RiskScore float64     `json:"risk_score"`
	Risk      string      `json:"risk"`
	Factors   RiskFactors `json:"risk_factors"`
	// Community is the definition's own; absent when it is connected to nothing.
	Community *query.CommunityRef `json:"community,omitempty"`
	// Processes are the entry points whose flow (impact depth) reaches it.
	Processes []string `json:"processes,omitempty"`
}

// Report is the answer for one diff.
type Report struct {
	Base    string    `json:"base"`
	Files   []string  `json:"files"`
	Changed []Changed `json:"changed"`
	// RiskScore is the highest of the changed definitions' scores.
	RiskScore float64 `json:"risk_score"`
	Risk      string  `json:"risk"`
	// Communities are those the changed definitions and their dependents belong
	// to, the most touched first.
	Communities      []CommunityTouch `json:"communities"`
	CommunitiesCount int              `json:"communities_count"`
	// Processes are the entry points that reach a changed definition, the
	// first ProcessListCap of ProcessesCount.
	Processes      []ProcessTouch `json:"processes"`
	ProcessesCount int            `json:"processes_count"`
	Unmapped       []string       `json:"unmapped,omitempty"` // changed files the index has no definitions for
	Heuristic      string         `json:"heuristic"`
}

// Diff runs `git diff --unified=0 base` in root (base "" means the working tree
// against HEAD) and returns its hunks.
func Diff(ctx context.Context, root, base string) ([]Hunk, error) {
	if base == "" {
		base = "HEAD"
	}
	out, err := exec.CommandContext(ctx, "git", "-C", root, "diff", "--unified=0", "--no-color", "--no-ext-diff", base, "--").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return nil, fmt.Errorf("git diff %s in %s: %s", base, root, strings.TrimSpace(string(ee.Stderr)))
		}
		return nil, fmt.Errorf("git diff %s in %s: %w", base, root, err)
	}
	return ParseDiff(out)
}

// ParseDiff reads the hunks of a unified diff with zero context lines.
func ParseDiff(diff []byte) ([]Hunk, error) {
	var hunks []Hunk
	file := ""
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "):
			file = strings.TrimPrefix(strings.TrimPrefix(line, "+++ "), "b/")
			if file == "/dev/null" {
				file = ""
			}
		case strings.HasPrefix(line, "@@ ") && file != "":
			h, err := parseHunkHeader(line)
			if err != nil {
				return nil, err
			}
			h.File = file
			hunks = append(hunks, h)
		}
	}
	return hunks, sc.Err()
}

// parseHunkHeader reads "@@ -a,b +c,d @@": the new side's start c and count d.
func parseHunkHeader(line string) (Hunk, error) {
	fields := strings.Fields(line)
	if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
		return Hunk{}, fmt.Errorf("diff hunk header %q", line)
	}
	spec := strings.TrimPrefix(fields[2], "+")
	startS, countS, hasCount := strings.Cut(spec, ",")
	start, err := strconv.Atoi(startS)
	if err != nil {
		return Hunk{}, fmt.Errorf("diff hunk header %q: %w", line, err)
	}
	count := 1
	if hasCount {
		if count, err = strconv.Atoi(countS); err != nil {
			return Hunk{}, fmt.Errorf("diff hunk header %q: %w", line, err)
		}
	}
	if count == 0 { // a pure deletion: it sits after line start
		return Hunk{Start: max(start, 1), End: max(start, 1)}, nil
	}
	return Hunk{Start: start, End: start + count - 1}, nil
}

// Map finds the definitions the hunks touch, the innermost one for each changed
// line (a method rather than its type, a function rather than its file), and
// measures their impact: dependents, communities and processes reached, and a
// risk score (see Score).
func Map(ctx context.Context, st *store.Store, base string, hunks []Hunk) (*Report, error) {
	rep := &Report{Base: base, Heuristic: heuristicNote, Changed: []Changed{},
		Communities: []CommunityTouch{}, Processes: []ProcessTouch{}}
	byFile := map[string][]Hunk{}
	for _, h := range hunks {
		if _, seen := byFile[h.File]; !seen {
			rep.Files = append(rep.Files, h.File)
		}
		byFile[h.File] = append(byFile[h.File], h)
	}
	sort.Strings(rep.Files)
	var nodes []graph.Node
	for _, file := range rep.Files {
		inFile, err := st.NodesInFile(ctx, file)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(inFile, isDefinition) {
			rep.Unmapped = append(rep.Unmapped, file)
			continue
		}
		touched := map[string]*Changed{}
		var order []string
		for _, h := range byFile[file] {
			for line := h.Start; line <= h.End; line++ {
				n, ok := innermost(inFile, line)
				if !ok {
					continue
				}
				c := touched[n.QName]
				if c == nil {
					c = &Changed{Item: query.Item{QName: n.QName, Kind: string(n.Kind), File: n.File, Line: n.Line}}
					touched[n.QName] = c
					order = append(order, n.QName)
					nodes = append(nodes, n)
				}
				c.Lines++
			}
		}
		for _, q := range order {
			rep.Changed = append(rep.Changed, *touched[q])
		}
	}
	if len(rep.Changed) == 0 {
		rep.Risk = band(0)
		return rep, nil
	}
	if err := assess(ctx, st, rep, nodes); err != nil {
		return nil, err
	}
	return rep, nil
}

// isDefinition tells a definition from the nodes that stand for a whole file
// or package (a Markdown or YAML file may have only those).
func isDefinition(n graph.Node) bool { return n.Kind != graph.KindFile && n.Kind != graph.KindPackage }

// innermost is the smallest definition (not the file itself) whose lines contain line.
func innermost(nodes []graph.Node, line int) (graph.Node, bool) {
	var best graph.Node
	found := false
	for _, n := range nodes {
		if !isDefinition(n) {
			continue
		}
		end := max(n.EndLine, n.Line)
		if line < n.Line || line > end {
			continue
		}
		if !found || end-n.Line < max(best.EndLine, best.Line)-best.Line {
			best, found = n, true
		}
	}
	return best, found
}
