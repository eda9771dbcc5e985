// Package declarative reads CLI agent adapters described in TOML files: argv
// templates, and the paths of what to read in the agent's JSONL output.
package declarative

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// Adapter is a CLI agent's adapter described in a TOML file instead of Go code:
//
//	name = "my-agent"
//	binary = "my-agent"
//	argv = ["{binary}", "run", "--json", ["--model", "{model}"], ["{continue}", "--continue"], "{extra_args}"]
//	prompt = "stdin"            # or "argument", with {prompt} in argv
//	models = ["fast", "smart"]
//	[env]
//	MY_AGENT_MODEL = "{model}"
//	[output]
//	format = "jsonl"            # or "text": the whole stdout is the answer
//	[output.text]
//	path = "message.content.*.text"
//	where = { type = "assistant" }
//	join = "\n"
//	[output.session_id]
//	path = "session_id"
//	[output.usage]
//	path = "usage"
//	[output.error]
//	path = ["error.message", "message"]
//	where = { type = ["turn.failed", "error"] }
//
// An argv element is a string or a group (a list of strings). An element or group
// using a value placeholder that is empty for the request is left out; a group
// opened by a condition ({continue}, {fresh}, {no_tools}) is kept only when the
// condition holds. {extra_args} stands alone and expands to the request's extra
// arguments. Paths are dotted ("*" is every element of an array); where keeps the
// records whose value at each path is one of those given.
type Adapter struct {
	name, file, binary string
	argv               []arg
	promptArg          bool
	uses               map[string]bool
	env                map[string]template
	models, levels     []string

	jsonl                             bool
	text, delta, session, usage, errs *selector
}

// arg is one compiled argv element.
type arg struct {
	parts     []template
	condition string // a group kept only when this holds
	extra     bool   // {extra_args}
}

type selector struct {
	paths []jsonPath
	where []condition
	join  string
}

type condition struct {
	path   jsonPath
	values []string
}

// SetBinary overrides the program {binary} stands for (ALBERT_CODE_AGENT_BINARY).
func (d *Adapter) SetBinary(binary string) { d.binary = binary }

func (d *Adapter) Name() string             { return d.name }
func (d *Adapter) Models() []string         { return d.models }
func (d *Adapter) ThinkingLevels() []string { return d.levels }

// Run runs the agent as a supervised process (RunProcess).
func (d *Adapter) Run(ctx context.Context, req *backend.Request, emit func(backend.Event)) (backend.Result, error) {
	return cli.RunProcess(ctx, d, req, emit)
}

// Validate refuses request fields the file gives no place to, naming the placeholder
// to add. A request that continues its session is let through: continuing is the
// API's default, and an agent without sessions simply starts afresh.
func (d *Adapter) Validate(req *backend.Request) error {
	var missing []string
	for _, f := range []struct {
		set  bool
		name string
	}{
		{req.Model != "", "model"}, {req.SystemPrompt != "", "system_prompt"},
		{req.AppendSystemPrompt != "", "append_system_prompt"}, {req.Resume != "", "resume"},
		{req.Thinking != "", "thinking"}, {len(req.ToolsAllowlist) > 0, "tools"},
		{req.NoTools, "no_tools"}, {len(req.ExtraArgs) > 0, listPlaceholder},
	} {
		if f.set && !d.uses[f.name] {
			missing = append(missing, "{"+f.name+"}")
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("adapter %s cannot take this request: add %s to argv in %s",
			d.name, strings.Join(missing, ", "), d.file)
	}
	return nil
}

func (d *Adapter) values(req *backend.Request) map[string]string {
	return map[string]string{
		"binary": d.binary, "prompt": req.Prompt, "workspace": req.Workspace, "model": req.Model,
		"system_prompt": req.SystemPrompt, "append_system_prompt": req.AppendSystemPrompt,
		"resume": req.Resume, "thinking": req.Thinking, "tools": strings.Join(req.ToolsAllowlist, ","),
		"json_schema": cli.CompactJSON(req.JSONSchema),
	}
}

func (d *Adapter) holds(cond string, req *backend.Request) bool {
	switch cond {
	case "continue":
		return req.Continue && req.Resume == ""
	case "fresh":
		return !req.Continue && req.Resume == ""
	case "no_tools":
		return req.NoTools
	}
	return true
}

func (d *Adapter) BuildArgv(req *backend.Request) ([]string, error) {
	vals := d.values(req)
	var argv []string
	for _, a := range d.argv {
		if a.extra {
			argv = append(argv, req.ExtraArgs...)
			continue
		}
		if !d.holds(a.condition, req) {
			continue
		}
		group := make([]string, 0, len(a.parts))
		for _, t := range a.parts {
			s, ok := t.expand(vals)
			if !ok {
				group = nil
				break
			}
			group = append(group, s)
		}
		argv = append(argv, group...)
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, fmt.Errorf("adapter %s: argv has no program (%s)", d.name, d.file)
	}
	return argv, nil
}

func (d *Adapter) Env(req *backend.Request, base []string) []string {
	vals := d.values(req)
	vars := map[string]string{}
	for k, t := range d.env {
		if v, ok := t.expand(vals); ok {
			vars[k] = v
		}
	}
	for k, v := range req.Env {
		vars[k] = v
	}
	return cli.MergeEnv(base, vars)
}

func (d *Adapter) Stdin(req *backend.Request) io.Reader {
	if d.promptArg {
		return nil
	}
	return strings.NewReader(req.Prompt)
}

// ParseOutput reads the agent's records through the file's selectors. A line that
// is not a JSON record, or one cut short, is quoted in OutputError and the rest read
// as usual. Records of a type no selector names are not reported: the file lists the
// paths it reads, not the types the agent prints.
func (d *Adapter) ParseOutput(stdout []byte, _ *backend.Request) backend.Result {
	if !d.jsonl {
		return backend.Result{Text: strings.TrimSpace(string(stdout))}
	}
	var res backend.Result
	var texts []string
	var problems cli.Problems
	for line := range cli.Lines(stdout) {
		var rec map[string]any
		if err := cli.ReadRecord(d.name, line, &rec); err != nil {
			problems.Add(err)
			continue
		}
		texts = append(texts, d.text.strings(rec)...)
		if res.SessionID == "" {
			res.SessionID = first(d.session.strings(rec))
		}
		for _, u := range d.usage.values(rec) {
			res.Usage.Add(usageOf(u))
		}
		if e := first(d.errs.strings(rec)); e != "" {
			res.ProviderError = e
		}
	}
	res.Text = strings.TrimSpace(strings.Join(texts, d.text.join))
	res.OutputError = problems.String()
	return res
}

func (d *Adapter) NewStream(*backend.Request) cli.Stream {
	if !d.jsonl {
		return cli.LineDeltas{}
	}
	delta := d.delta
	if delta == nil {
		delta = d.text
	}
	return &declarativeStream{d: d, delta: delta}
}

type declarativeStream struct {
	d      *Adapter
	delta  *selector
	deltas int
}

func (s *declarativeStream) Line(line []byte) []backend.Event {
	var rec map[string]any
	if err := cli.ReadRecord(s.d.name, line, &rec); err != nil {
		return []backend.Event{{Kind: backend.EventError, Text: err.Error()}}
	}
	var evs []backend.Event
	if id := first(s.d.session.strings(rec)); id != "" {
		evs = append(evs, backend.Event{Kind: backend.EventSession, SessionID: id})
	}
	for _, t := range s.delta.strings(rec) {
		if s.deltas++; s.deltas > 1 {
			t = s.delta.join + t
		}
		evs = append(evs, backend.Event{Kind: backend.EventDelta, Text: t})
	}
	for _, v := range s.d.usage.values(rec) {
		u := usageOf(v)
		evs = append(evs, backend.Event{Kind: backend.EventUsage, Usage: &u})
	}
	if e := first(s.d.errs.strings(rec)); e != "" {
		evs = append(evs, backend.Event{Kind: backend.EventError, Text: e})
	}
	return evs
}

// values returns what the selector finds in rec: nothing unless every where
// condition holds; then the values at the first path that has any.
func (s *selector) values(rec map[string]any) []any {
	if s == nil {
		return nil
	}
	for _, c := range s.where {
		if !slices.ContainsFunc(c.path.lookup(rec), func(v any) bool {
			str, ok := v.(string)
			return ok && slices.Contains(c.values, str)
		}) {
			return nil
		}
	}
	for _, p := range s.paths {
		if vs := p.lookup(rec); len(vs) > 0 {
			return vs
		}
	}
	return nil
}

// strings keeps the string values the selector finds.
func (s *selector) strings(rec map[string]any) []string {
	var out []string
	for _, v := range s.values(rec) {
		if str, ok := v.(string); ok {
			out = append(out, str)
		}
	}
	return out
}

func usageOf(v any) backend.Usage {
	raw, err := json.Marshal(v)
	if err != nil {
		return backend.Usage{}
	}
	return cli.UsageFrom(raw)
}

func first(ss []string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
