package agentenv

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/skill"
	"github.com/etalab-ia/albert-code/internal/tool"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/tool/mcp"
)

// mcpServers are the MCP servers of an Env, shared by its copies (WithProfile,
// WithModel) and by every run built from them: started by the first run, kept while
// any run uses them, and stopped a little after the last one closes, so that a
// profile or model switch, which closes the old run before opening the new one, finds
// them still running.
type mcpServers struct {
	// linger is how long the servers outlive their last run.
	linger time.Duration

	mu       sync.Mutex
	set      *mcp.Set
	ready    chan struct{} // closed once set is started
	users    int
	reported bool        // the start-up warnings went to a run
	stop     *time.Timer // pending shutdown after the last run closed
	closed   bool
	done     chan struct{} // closed once the servers are stopped
	// samplers answer the servers' sampling requests: one per open run, the
	// latest last (see offerSampling).
	samplers []*mcp.SamplingHost
}

// mcpLinger: a switch reopens a run within milliseconds; two seconds is ample and
// still stops servers promptly once a server-side run is over (judgement).
const mcpLinger = 2 * time.Second

func newMCPServers() *mcpServers {
	return &mcpServers{linger: mcpLinger, done: make(chan struct{})}
}

// acquire marks one more run as using the servers, starting them if needed, and
// returns a release func.
func (m *mcpServers) acquire(e *Env) (release func()) {
	if len(e.Config.MCPServers) == 0 {
		return func() {}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stop != nil {
		m.stop.Stop()
		m.stop = nil
	}
	m.users++
	if m.ready == nil && !m.closed {
		ready := make(chan struct{})
		m.ready = ready
		opts := mcp.Options{WorkDir: e.WorkDir, LookupEnv: e.lookupEnv, Version: e.userAgent, Reserved: reservedNames(e), Sandbox: e.Sandbox(),
			Sampling: m.sampler}
		go func() {
			defer close(ready)
			set := mcp.Start(context.Background(), e.Config.MCPServers, opts)
			m.mu.Lock()
			m.set = set
			m.mu.Unlock()
		}()
	}
	var once sync.Once
	return func() { once.Do(m.release) }
}

func (m *mcpServers) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.users--
	if m.users > 0 || m.closed {
		return
	}
	m.stop = time.AfterFunc(m.linger, func() {
		m.mu.Lock()
		idle := m.users == 0 && !m.closed
		m.mu.Unlock()
		if idle {
			m.close()
		}
	})
}

// tools waits for the servers to start and returns their tools; none when no run
// started them.
func (m *mcpServers) tools() []tool.Tool {
	if !m.wait() {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	return m.set.Tools()
}

// takeWarnings returns, to its first caller only, why servers failed to start, so a
// profile switch does not report them again.
func (m *mcpServers) takeWarnings() []string {
	if !m.wait() {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.reported {
		return nil
	}
	m.reported = true
	return m.set.Warnings()
}

// wait waits for a start under way; false when none was asked for.
func (m *mcpServers) wait() bool {
	m.mu.Lock()
	ready := m.ready
	m.mu.Unlock()
	if ready == nil {
		return false
	}
	<-ready
	return true
}

// close stops the servers now, or waits for a close under way; later runs get no
// MCP tools.
func (m *mcpServers) close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		<-m.done
		return
	}
	m.closed = true
	if m.stop != nil {
		m.stop.Stop()
	}
	ready := m.ready
	m.mu.Unlock()
	defer close(m.done)
	if ready == nil {
		return
	}
	<-ready
	if err := m.set.Close(); err != nil {
		slog.Debug("stop MCP servers", "err", err)
	}
}

// Close stops what the Env started for its runs (MCP servers) without waiting for
// the linger after the last run. Faces call it once they are done with the Env and
// every copy of it; it is safe to call more than once.
func (e *Env) Close() {
	if e.mcp != nil {
		e.mcp.close()
	}
	e.closeSandbox()
}

// acquireMCP starts the MCP servers for a run, unless it offers no tools, and
// returns the func that releases them when the run closes.
func (e *Env) acquireMCP(noTools bool) func() {
	if e.mcp == nil || noTools {
		return func() {}
	}
	return e.mcp.acquire(e)
}

// extensionWarnings are the broken skills and the MCP servers that failed to start,
// reported by the first run only.
func (e *Env) extensionWarnings() []string {
	w := append(e.profileWarnings.take(), e.takeSkillWarnings()...)
	if e.mcp != nil {
		w = append(w, e.mcp.takeWarnings()...)
	}
	return w
}

// reservedNames are the names MCP tools must not take: the built-in tools, the code
// graph and the skill tool.
func reservedNames(e *Env) map[string]bool {
	names := map[string]bool{agenttool.Name: true, skill.ToolName: true}
	for _, t := range builtin.All(e.toolEnv(), builtin.Deps{}) {
		names[t.Info().Name] = true
	}
	return names
}
