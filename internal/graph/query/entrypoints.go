package query

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// entryPointsSQL finds the functions a program, a test run or another package enters
// through: main, init, test functions in test files, and exported functions and
// methods nothing in the repository calls or references (the API surface).
const entryPointsSQL = `
SELECT qname, kind, file, line, name, exported FROM nodes n
WHERE kind IN ('function', 'method') AND (
	(kind = 'function' AND (name = 'main' OR name = 'init' OR name GLOB 'init@*' OR qname GLOB '*.init@*'))
	OR (file GLOB '*_test.go' AND (name GLOB 'Test*' OR name GLOB 'Benchmark*' OR name GLOB 'Fuzz*' OR name GLOB 'Example*'))
	OR (file GLOB '*test_*.py' AND name GLOB 'test*')
	OR (exported AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.dst = n.qname AND e.kind IN ('calls', 'references'))))
ORDER BY file, line, qname`

// maxEntryPoints caps the list (a judgement call: more is a listing, not an answer).
const maxEntryPoints = 5000

// EntryPoints lists where execution enters the code: main and init functions, test
// functions, and exported functions and methods nothing in the repository calls
// (the API surface). Each item's Why says which. The answer is a heuristic by
// nature: a function called only through reflection or from outside the repository
// looks like an entry point too.
func EntryPoints(ctx context.Context, st *store.Store) (*Answer, error) {
	_, rows, truncated, err := st.Query(ctx, entryPointsSQL, maxEntryPoints, 30*time.Second)
	if err != nil {
		return nil, err
	}
	a := &Answer{Question: "entrypoints", Certainty: LowerBound, Items: []Item{},
		Why: "a heuristic: main, init and test functions, and exported functions nothing in the index calls or references; functions reached only through reflection, plugins or other repositories look the same"}
	for _, r := range rows {
		it := Item{QName: fmt.Sprint(r[0]), Kind: fmt.Sprint(r[1]), File: fmt.Sprint(r[2]), Line: toInt(r[3])}
		name := fmt.Sprint(r[4])
		switch {
		case name == "main":
			it.Why = "program entry (main)"
		case name == "init" || strings.Contains(it.QName, ".init@"):
			it.Why = "package initialisation (init)"
		case strings.HasSuffix(it.File, "_test.go") || strings.HasPrefix(name, "test"):
			it.Why = "test entry"
		default:
			it.Why = "exported, and nothing in the repository calls or references it"
		}
		a.Items = append(a.Items, it)
	}
	if truncated {
		a.Why += fmt.Sprintf("; only the first %d are listed", maxEntryPoints)
	}
	a.TotalCount = len(a.Items)
	return a, nil
}

func toInt(v any) int {
	switch n := v.(type) {
	case int64:
		return int(n)
	case int:
		return n
	case float64:
		return int(n)
	}
	return 0
}
