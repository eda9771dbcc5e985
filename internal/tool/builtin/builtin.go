// Package builtin provides the tools albert-code ships with: a shell, file reading and
// editing, search, a todo list, questions to the user, sub-agents and the web. Each tool
// is one constructor over an Env; faces and the agent supply the few dependencies that
// live outside this package (an Asker, a SubAgentRunner, a search backend) through Deps.
package builtin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/sensitive"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// Defaults for Env's zero fields. Each is a judgement unless it says otherwise.
const (
	// 30000 bytes is about 8k tokens: enough for a test failure or a build log's
	// interesting end, small enough that one noisy command cannot flood the context.
	DefaultMaxOutputBytes = 30000
	// 120 s covers a typical test suite; longer jobs ask for a timeout explicitly.
	DefaultBashTimeout = 120 * time.Second
	// 600 s is the longest a turn should block on one command.
	DefaultBashMaxTimeout = 600 * time.Second
	// 2000 lines and 64000 bytes per read: the original's max_read_bytes, and a line
	// budget that shows most source files whole.
	DefaultReadLines = 2000
	DefaultReadBytes = 64000
	// 5 MiB of download is more than any page a model should read, and bounds memory.
	DefaultFetchMaxBytes = 5 << 20
	// 50000 bytes of Markdown is a long article; longer pages are capped head+tail.
	DefaultFetchOutputBytes = 50000
	DefaultFetchTimeout     = 30 * time.Second
	// 120 s: the original's max_timeout for web_fetch.
	DefaultFetchMaxTimeout = 120 * time.Second
)

// Env carries what the built-in tools need from their surroundings. The zero value of
// every field but WorkDir means "use the default".
type Env struct {
	// WorkDir is the workspace root: relative paths resolve against it and commands
	// run in it. Empty means the process's working directory.
	WorkDir string

	// MaxOutputBytes caps what bash, grep and glob return to the model.
	MaxOutputBytes int
	// BashTimeout is the default command timeout; BashMaxTimeout the most a call may ask.
	BashTimeout    time.Duration
	BashMaxTimeout time.Duration
	// Shell overrides the shell bash runs commands with (default: bash, else sh).
	Shell string
	// Sandbox confines the commands bash starts, in the mode the call's context
	// carries (sandbox.WithMode). Nil scrubs their environment and ties their tree
	// to the agent, and confines nothing: only for callers that confine otherwise.
	Sandbox *sandbox.Sandbox

	// ReadLines and ReadBytes bound one read call.
	ReadLines int
	ReadBytes int

	// BuiltinGrep forces grep's Go engine even when ripgrep is on PATH.
	BuiltinGrep bool

	// Secrets are the paths no file tool reads or writes, and grep and glob skip
	// (absolute, see package sensitive); nil means sensitive.DefaultSecrets().
	Secrets []string
	// AllowSecrets are the user's explicit exceptions to Secrets, from their global
	// configuration only.
	AllowSecrets []string

	// FetchMaxBytes caps a web_fetch download; FetchOutputBytes what it returns.
	FetchMaxBytes    int64
	FetchOutputBytes int
	FetchTimeout     time.Duration
	FetchMaxTimeout  time.Duration
	// AllowPrivateNetwork lets web_fetch reach loopback, private and link-local
	// addresses. Off by default: a model talked into fetching http://169.254.169.254
	// or an intranet page by a prompt injection must not succeed.
	AllowPrivateNetwork bool
}

func (e Env) workDir() string {
	if e.WorkDir != "" {
		return e.WorkDir
	}
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}

func (e Env) maxOutput() int        { return orInt(e.MaxOutputBytes, DefaultMaxOutputBytes) }
func (e Env) readLines() int        { return orInt(e.ReadLines, DefaultReadLines) }
func (e Env) readBytes() int        { return orInt(e.ReadBytes, DefaultReadBytes) }
func (e Env) fetchOutputBytes() int { return orInt(e.FetchOutputBytes, DefaultFetchOutputBytes) }

func (e Env) fetchMaxBytes() int64 {
	if e.FetchMaxBytes > 0 {
		return e.FetchMaxBytes
	}
	return DefaultFetchMaxBytes
}

func orInt(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func orDuration(v, def time.Duration) time.Duration {
	if v > 0 {
		return v
	}
	return def
}

// resolve turns a path the model sent into a clean absolute path: relative paths are
// taken from WorkDir and a leading ~/ means the user's home, as in a shell.
func (e Env) resolve(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.workDir(), p)
	}
	return filepath.Clean(p)
}

// display shows a path the way the model best reuses it: relative to WorkDir when it
// is inside, absolute otherwise. A real path (links resolved) below a workspace
// reached through a link is shown relative too.
func (e Env) display(abs string) string {
	wd := e.workDir()
	if sensitive.Within(wd, abs) {
		return relSlash(wd, abs)
	}
	if real, err := sensitive.Resolve(e.resolve(wd)); err == nil && sensitive.Within(real, abs) {
		return relSlash(real, abs)
	}
	return abs
}

func relSlash(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// Deps are the collaborators some tools need. Any may be nil: the tool then tells the
// model it is unavailable instead of failing.
type Deps struct {
	Todos     *TodoList
	Asker     Asker
	SubAgents SubAgentRunner
	Search    SearchBackend
}

// All returns every built-in tool. A nil Todos gets a fresh list.
func All(env Env, deps Deps) []tool.Tool {
	todos := deps.Todos
	if todos == nil {
		todos = &TodoList{}
	}
	return []tool.Tool{
		Bash(env),
		Read(env),
		Write(env),
		Edit(env),
		Grep(env),
		Glob(env),
		Todo(todos),
		AskUserQuestion(deps.Asker),
		Task(deps.SubAgents),
		WebFetch(env),
		WebSearch(deps.Search),
	}
}

// schemaFor is the schema tool.New would generate for P, after edit adds what Go
// types cannot say (enums, bounds). Validation still uses the generated schema, so
// each tool checks those constraints itself too, with messages that say more.
func schemaFor[P any](edit func(s schemaNode)) json.RawMessage {
	raw, err := tool.SchemaFor[P]()
	if err != nil {
		panic(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		panic(err)
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return out
}

// schemaNode is one object of a decoded JSON Schema, for schemaFor's edits. A path
// that does not exist panics: the edits are fixed code, run by every test.
type schemaNode map[string]any

// Prop is the schema of property name.
func (n schemaNode) Prop(name string) schemaNode {
	return n["properties"].(map[string]any)[name].(map[string]any)
}

// Items is the schema of an array's items.
func (n schemaNode) Items() schemaNode { return n["items"].(map[string]any) }
