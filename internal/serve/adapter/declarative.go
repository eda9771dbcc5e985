package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Declarative is an adapter described in a TOML file instead of Go code:
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
type Declarative struct {
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

func (d *Declarative) Name() string             { return d.name }
func (d *Declarative) Models() []string         { return d.models }
func (d *Declarative) ThinkingLevels() []string { return d.levels }

// Run runs the agent as a supervised process (RunProcess).
func (d *Declarative) Run(ctx context.Context, req *Request, emit func(Event)) (Result, error) {
	return RunProcess(ctx, d, req, emit)
}

// Validate refuses request fields the file gives no place to, naming the placeholder
// to add. A request that continues its session is let through: continuing is the
// API's default, and an agent without sessions simply starts afresh.
func (d *Declarative) Validate(req *Request) error {
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

func (d *Declarative) values(req *Request) map[string]string {
	return map[string]string{
		"binary": d.binary, "prompt": req.Prompt, "workspace": req.Workspace, "model": req.Model,
		"system_prompt": req.SystemPrompt, "append_system_prompt": req.AppendSystemPrompt,
		"resume": req.Resume, "thinking": req.Thinking, "tools": strings.Join(req.ToolsAllowlist, ","),
		"json_schema": compactJSON(req.JSONSchema),
	}
}

func (d *Declarative) holds(cond string, req *Request) bool {
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

func (d *Declarative) BuildArgv(req *Request) ([]string, error) {
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

func (d *Declarative) Env(req *Request, base []string) []string {
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
	return mergeEnv(base, vars)
}

func (d *Declarative) Stdin(req *Request) io.Reader {
	if d.promptArg {
		return nil
	}
	return strings.NewReader(req.Prompt)
}

// ParseOutput reads the agent's records through the file's selectors. A line that
// is not a JSON record, or one cut short, is quoted in OutputError and the rest read
// as usual. Records of a type no selector names are not reported: the file lists the
// paths it reads, not the types the agent prints.
func (d *Declarative) ParseOutput(stdout []byte, _ *Request) Result {
	if !d.jsonl {
		return Result{Text: strings.TrimSpace(string(stdout))}
	}
	var res Result
	var texts []string
	var problems problems
	for line := range lines(stdout) {
		var rec map[string]any
		if err := readRecord(d.name, line, &rec); err != nil {
			problems.add(err)
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

func (d *Declarative) NewStream(*Request) Stream {
	if !d.jsonl {
		return lineDeltas{}
	}
	delta := d.delta
	if delta == nil {
		delta = d.text
	}
	return &declarativeStream{d: d, delta: delta}
}

type declarativeStream struct {
	d      *Declarative
	delta  *selector
	deltas int
}

func (s *declarativeStream) Line(line []byte) []Event {
	var rec map[string]any
	if err := readRecord(s.d.name, line, &rec); err != nil {
		return []Event{{Kind: EventError, Text: err.Error()}}
	}
	var evs []Event
	if id := first(s.d.session.strings(rec)); id != "" {
		evs = append(evs, Event{Kind: EventSession, SessionID: id})
	}
	for _, t := range s.delta.strings(rec) {
		if s.deltas++; s.deltas > 1 {
			t = s.delta.join + t
		}
		evs = append(evs, Event{Kind: EventDelta, Text: t})
	}
	for _, v := range s.d.usage.values(rec) {
		u := usageOf(v)
		evs = append(evs, Event{Kind: EventUsage, Usage: &u})
	}
	if e := first(s.d.errs.strings(rec)); e != "" {
		evs = append(evs, Event{Kind: EventError, Text: e})
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

func usageOf(v any) Usage {
	raw, err := json.Marshal(v)
	if err != nil {
		return Usage{}
	}
	return usageFrom(raw)
}

func first(ss []string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
