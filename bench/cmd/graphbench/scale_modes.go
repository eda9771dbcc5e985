package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/mcpserver"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// modeReport compares, in one process and the same run, the server that opens
// the index and walks the tree on every call (no Lifetime: how every call was
// served before issue 17) with the one that keeps the index open and watched.
type modeReport struct {
	Calls                     int     `json:"calls"`
	PerCallCallersP50         float64 `json:"per_call_find_callers_p50_ms"`
	PerCallCallersP95         float64 `json:"per_call_find_callers_p95_ms"`
	PerCallTrivialP50         float64 `json:"per_call_select1_p50_ms"`
	PerCallTrivialP95         float64 `json:"per_call_select1_p95_ms"`
	KeptCallersP50            float64 `json:"kept_find_callers_p50_ms"`
	KeptCallersP95            float64 `json:"kept_find_callers_p95_ms"`
	KeptTrivialP50            float64 `json:"kept_select1_p50_ms"`
	KeptTrivialP95            float64 `json:"kept_select1_p95_ms"`
	PerCallCommunitiesAgainMS float64 `json:"per_call_communities_again_ms"`
	KeptCommunitiesAgainMS    float64 `json:"kept_communities_again_ms"`
}

// compareModes serves the indexed dir in-process both ways (in-memory transport)
// and asks each calls questions about the same symbols.
func compareModes(ctx context.Context, dir string, symbols []string, calls int) (*modeReport, error) {
	rep := &modeReport{Calls: calls}
	for _, kept := range []bool{false, true} {
		var callers, trivial []float64
		var again float64
		err := func() error {
			life, end := context.WithCancel(ctx)
			defer end()
			cfg := mcpserver.Config{Root: dir, Version: "bench",
				IndexPath: func(bool) (string, error) { return filepath.Join(dir, ".albert-code", "graph", "graph.db"), nil },
				Index:     index.Options{Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract}}
			if kept {
				cfg.Lifetime = life
			}
			ct, st := mcp.NewInMemoryTransports()
			ss, err := mcpserver.New(cfg).Connect(life, st, nil)
			if err != nil {
				return err
			}
			defer ss.Wait()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "graphbench"}, nil).Connect(life, ct, nil)
			if err != nil {
				return err
			}
			defer cs.Close()
			ask := func(name string, args any) (float64, error) {
				start := time.Now()
				res, err := cs.CallTool(life, &mcp.CallToolParams{Name: name, Arguments: args})
				if err == nil && res.IsError {
					err = fmt.Errorf("%s: %v", name, res.Content)
				}
				return ms(time.Since(start)), err
			}
			if _, err := ask("health_check", struct{}{}); err != nil {
				return err
			}
			for i := range calls {
				d, err := ask("find_callers", map[string]any{"symbol": symbols[i%len(symbols)]})
				if err != nil {
					return err
				}
				callers = append(callers, d)
				if d, err = ask("query_graph", map[string]any{"sql": "SELECT 1"}); err != nil {
					return err
				}
				trivial = append(trivial, d)
			}
			if _, err := ask("get_communities", map[string]any{}); err != nil {
				return err
			}
			again, err = ask("get_communities", map[string]any{"offset": 1})
			return err
		}()
		if err != nil {
			return nil, err
		}
		if kept {
			rep.KeptCallersP50, rep.KeptCallersP95 = quantile(callers, 0.5), quantile(callers, 0.95)
			rep.KeptTrivialP50, rep.KeptTrivialP95 = quantile(trivial, 0.5), quantile(trivial, 0.95)
			rep.KeptCommunitiesAgainMS = again
		} else {
			rep.PerCallCallersP50, rep.PerCallCallersP95 = quantile(callers, 0.5), quantile(callers, 0.95)
			rep.PerCallTrivialP50, rep.PerCallTrivialP95 = quantile(trivial, 0.5), quantile(trivial, 0.95)
			rep.PerCallCommunitiesAgainMS = again
		}
	}
	return rep, nil
}
