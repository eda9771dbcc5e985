package app

import (
	"sync"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// env is agentenv.Env with the code_graph tool the graph commands' index gives.
type env struct {
	*agentenv.Env

	// graph is the code_graph tool, built once so the agent and its sub-agents
	// share its refresh lock.
	graphOnce sync.Once
	graph     *agenttool.Tool
}

// loadEnv reads trust, configuration and profiles for workDir. trustFlag trusts the
// folder for this run only (--trust).
func loadEnv(workDir string, ov config.Overrides, trustFlag bool) (*env, error) {
	ae, err := agentenv.Load(agentenv.Options{WorkDir: workDir, Overrides: ov, Trust: trustFlag, UserAgent: userAgent()})
	if err != nil {
		return nil, err
	}
	return withCodeGraph(ae), nil
}

// withCodeGraph gives ae the code_graph tool over its workspace's index.
func withCodeGraph(ae *agentenv.Env) *env {
	e := &env{Env: ae}
	ae.CodeGraph = e.codeGraph
	return e
}

func userAgent() string { return "albert-code/" + Version() }

// codeGraph is the code_graph tool over the workspace's index, the one the graph
// commands build when run in the workspace's root.
func (e *env) codeGraph() *agenttool.Tool {
	e.graphOnce.Do(func() {
		root := e.WorkDir
		goOpts := golang.DefaultOptions()
		// The model may call this read-only tool in an untrusted folder: type-checking
		// compiles nothing of the repository's own code but its cgo C files, so cgo is
		// off here (those files fall back to tree-sitter).
		goOpts.Env = append(goOpts.Env, "CGO_ENABLED=0")
		vectors := e.GraphEmbeddings().Lazy(func() (string, error) { return graphDBPath(root, true) })
		e.graph = agenttool.New(agenttool.Config{
			Vectors:   vectors,
			Root:      root,
			IndexPath: func(create bool) (string, error) { return graphDBPath(root, create) },
			Index:     index.Options{Go: goOpts, Extract: treesitter.Extractor{}.Extract},
		})
	})
	return e.graph
}
