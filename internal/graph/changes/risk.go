package changes

import (
	"cmp"
	"context"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// RiskFactors are what a definition's risk score is made of.
type RiskFactors struct {
	// Reach is the dependents count on a log scale, 1 from ReachSaturation up.
	Reach float64 `json:"reach"`
	// PublicAPI: the definition is exported, so code outside the repository
	// (which the graph cannot see) may depend on it too.
	PublicAPI bool `json:"public_api"`
	// Tested: a test function is among its dependents, or it is one itself.
	Tested bool `json:"tested"`
	// CommunitiesCrossed counts the communities of the definition and its
	// dependents: a change felt in several parts of the code.
	CommunitiesCrossed int `json:"communities_crossed"`
}

// Weights of the risk score, and where each factor saturates. Judgement, not
// measurement (as the peer says of its own): reach weighs most because it is the
// one factor counted, not guessed; public API and missing tests say the count may
// be an underestimate or go unnoticed; communities crossed say the breakage lands
// in code its author may not know.
const (
	weightReach       = 0.4
	weightPublic      = 0.25
	weightUntested    = 0.15
	weightCommunities = 0.2
	// ReachSaturation: 64 dependents within the impact depth is as far-reaching as
	// it gets for the score.
	ReachSaturation = 64
	// communitiesSaturation: a change felt in 4 communities scores the whole weight.
	communitiesSaturation = 4
)

// ProcessListCap bounds the processes a report lists; processes_count has them all.
const ProcessListCap = 50

// heuristicNote is attached to every report: the counts are measured, the score
// is a judgement on top of them.
const heuristicNote = "risk_score is a heuristic in [0,1]: 0.4·reach (log of the dependents within 3 hops, saturating at 64) " +
	"+ 0.25 if exported (callers outside the repository are invisible) + 0.15 if no test function is among its dependents " +
	"+ 0.2·communities crossed beyond its own (saturating at 3 more); the report's score is its riskiest definition's; " +
	"risk is low under 0.3, medium under 0.6, high above. Processes are the entry points (see entrypoints) whose calls reach a changed definition within 3 hops"

// Score combines the factors into a number in [0, 1].
func Score(f RiskFactors) float64 {
	s := weightReach * f.Reach
	if f.PublicAPI {
		s += weightPublic
	}
	if !f.Tested {
		s += weightUntested
	}
	crossed := min(max(f.CommunitiesCrossed-1, 0), communitiesSaturation-1)
	s += weightCommunities * float64(crossed) / float64(communitiesSaturation-1)
	return math.Round(min(s, 1)*1e4) / 1e4
}

// reach puts a dependents count on the log scale of RiskFactors.Reach.
func reach(dependents int) float64 {
	return min(1, math.Log2(1+float64(dependents))/math.Log2(1+ReachSaturation))
}

func band(score float64) string {
	switch {
	case score >= 0.6:
		return "high"
	case score >= 0.3:
		return "medium"
	}
	return "low"
}

// CommunityTouch is one community a change reaches: how many of the changed
// definitions are in it, and how many of their dependents.
type CommunityTouch struct {
	query.CommunityRef
	Changed    int `json:"changed"`
	Dependents int `json:"dependents"`
}

// ProcessTouch is one entry point whose flow reaches changed definitions.
type ProcessTouch struct {
	Entry string `json:"entry"`
	File  string `json:"file,omitempty"`
	Line  int    `json:"line,omitempty"`
	// Why says what kind of entry it is (main, test, API surface).
	Why string `json:"why"`
	// Reaches are the changed definitions it reaches.
	Reaches []string `json:"reaches"`
}

// assess fills in each changed definition's dependents, community, processes and
// score, and the report's totals. nodes are the changed definitions, in order.
func assess(ctx context.Context, st *store.Store, rep *Report, nodes []graph.Node) error {
	members, err := query.CommunityMembership(ctx, st)
	if err != nil {
		return err
	}
	entries, err := query.EntryPoints(ctx, st)
	if err != nil {
		return err
	}
	entryOf := map[string]query.Item{}
	for _, e := range entries.Items {
		entryOf[e.QName] = e
	}
	touches := map[int]*CommunityTouch{}
	counted := map[string]bool{} // dependents already counted in their community
	processes := map[string]*ProcessTouch{}
	var processOrder []string
	for i, n := range nodes {
		c := &rep.Changed[i]
		a, err := query.AskWith(ctx, st, "impact", n.QName, query.Options{Depth: query.DefaultDepth})
		if err != nil {
			return err
		}
		c.Dependents = a.TotalCount
		seenCommunity := map[int]bool{}
		addCommunity := func(qname string, changed bool) {
			ref, ok := members.Of(qname)
			if !ok {
				return
			}
			seenCommunity[ref.ID] = true
			t := touches[ref.ID]
			if t == nil {
				t = &CommunityTouch{CommunityRef: ref}
				touches[ref.ID] = t
			}
			switch {
			case changed:
				t.Changed++
			case !counted[qname]:
				t.Dependents++
			}
			counted[qname] = true
		}
		if ref, ok := members.Of(n.QName); ok {
			c.Community = &ref
		}
		addCommunity(n.QName, true)
		reached := []query.Item{{QName: n.QName, File: n.File}}
		for _, it := range a.Items {
			addCommunity(it.QName, false)
			reached = append(reached, it)
		}
		for _, it := range reached {
			c.Factors.Tested = c.Factors.Tested || isTestFile(it.File)
			e, ok := entryOf[it.QName]
			if !ok {
				continue
			}
			p := processes[e.QName]
			if p == nil {
				p = &ProcessTouch{Entry: e.QName, File: e.File, Line: e.Line, Why: e.Why}
				processes[e.QName] = p
				processOrder = append(processOrder, e.QName)
			}
			if !slices.Contains(p.Reaches, n.QName) {
				p.Reaches = append(p.Reaches, n.QName)
			}
			if !slices.Contains(c.Processes, e.QName) {
				c.Processes = append(c.Processes, e.QName)
			}
		}
		c.Factors.Reach = math.Round(reach(c.Dependents)*1e4) / 1e4
		c.Factors.PublicAPI = n.Exported
		c.Factors.CommunitiesCrossed = len(seenCommunity)
		c.RiskScore = Score(c.Factors)
		c.Risk = band(c.RiskScore)
		rep.RiskScore = max(rep.RiskScore, c.RiskScore)
	}
	rep.Risk = band(rep.RiskScore)
	for _, t := range touches {
		rep.Communities = append(rep.Communities, *t)
	}
	slices.SortFunc(rep.Communities, func(a, b CommunityTouch) int {
		if x := cmp.Compare(b.Changed+b.Dependents, a.Changed+a.Dependents); x != 0 {
			return x
		}
		return cmp.Compare(a.ID, b.ID)
	})
	rep.CommunitiesCount = len(rep.Communities)
	// Programs and tests first: they are what a reviewer runs; the API surface
	// (exported functions nothing calls) can be long.
	slices.SortStableFunc(processOrder, func(a, b string) int {
		return cmp.Compare(processRank(processes[a].Why), processRank(processes[b].Why))
	})
	rep.ProcessesCount = len(processOrder)
	for _, q := range processOrder[:min(len(processOrder), ProcessListCap)] {
		rep.Processes = append(rep.Processes, *processes[q])
	}
	return nil
}

func processRank(why string) int {
	switch {
	case strings.Contains(why, "main"):
		return 0
	case strings.Contains(why, "test"):
		return 1
	case strings.Contains(why, "init"):
		return 2
	}
	return 3
}

// isTestFile recognises the test files of the languages indexed: Go's _test.go,
// Python's test_*.py and *_test.py, JavaScript and TypeScript's .test. and .spec.
// files, and anything under a test, tests, __tests__ or spec folder.
func isTestFile(file string) bool {
	if file == "" {
		return false
	}
	base := path.Base(file)
	switch {
	case strings.HasSuffix(base, "_test.go"),
		strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")),
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."):
		return true
	}
	for _, dir := range strings.Split(path.Dir(file), "/") {
		switch dir {
		case "test", "tests", "__tests__", "spec":
			return true
		}
	}
	return false
}
