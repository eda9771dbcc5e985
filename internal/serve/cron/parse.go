package cron

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/etalab-ia/albert-code/internal/quantity"
	"github.com/etalab-ia/albert-code/internal/serve/problems"
)

// settings are the keys read from a mapping, the root's or a job's; nil means
// not given, so a job can override a root default with an empty value.
type settings struct {
	workspace, model, effort, thinking *string
	systemPrompt, appendSystemPrompt   *string
	timezone                           *string
	name, schedule, instruction        *string
	noContinue, enabled                *bool
	chatID                             *int64
	timeout                            *time.Duration
	// Lines of the keys whose problems are found after reading.
	nameLine, scheduleLine, instructionLine int
	timezoneLine, workspaceLine, effortLine int
}

// where says at which level a key may appear.
type where int

const (
	atRoot where = 1 << iota
	atJob
)

type keySpec struct {
	where where
	set   func(n *yaml.Node, s *settings) error
}

// keys is every key a job file may hold, besides the root's "jobs".
var keys = map[string]keySpec{
	"name":                 {atJob, func(n *yaml.Node, s *settings) error { s.nameLine = n.Line; return str(n, &s.name) }},
	"schedule":             {atJob, func(n *yaml.Node, s *settings) error { s.scheduleLine = n.Line; return str(n, &s.schedule) }},
	"instruction":          {atJob, func(n *yaml.Node, s *settings) error { s.instructionLine = n.Line; return str(n, &s.instruction) }},
	"enabled":              {atJob, func(n *yaml.Node, s *settings) error { return boolean(n, &s.enabled) }},
	"workspace":            {atRoot | atJob, func(n *yaml.Node, s *settings) error { s.workspaceLine = n.Line; return str(n, &s.workspace) }},
	"model":                {atRoot | atJob, func(n *yaml.Node, s *settings) error { return str(n, &s.model) }},
	"effort":               {atRoot | atJob, func(n *yaml.Node, s *settings) error { s.effortLine = n.Line; return str(n, &s.effort) }},
	"thinking":             {atRoot | atJob, func(n *yaml.Node, s *settings) error { s.effortLine = n.Line; return str(n, &s.thinking) }},
	"system_prompt":        {atRoot | atJob, func(n *yaml.Node, s *settings) error { return str(n, &s.systemPrompt) }},
	"append_system_prompt": {atRoot | atJob, func(n *yaml.Node, s *settings) error { return str(n, &s.appendSystemPrompt) }},
	"no_continue":          {atRoot | atJob, func(n *yaml.Node, s *settings) error { return boolean(n, &s.noContinue) }},
	"telegram_chat_id":     {atRoot | atJob, chatID},
	"timeout":              {atRoot | atJob, timeout},
	"timezone":             {atRoot | atJob, func(n *yaml.Node, s *settings) error { s.timezoneLine = n.Line; return str(n, &s.timezone) }},
}

func keysAt(w where) []string {
	var names []string
	for k, spec := range keys {
		if spec.where&w != 0 {
			names = append(names, k)
		}
	}
	if w == atRoot {
		names = append(names, "jobs")
	}
	slices.Sort(names)
	return names
}

// Parse validates a job file's content; name is how messages call the file.
// Every problem is reported at once, as a problems.List.
func Parse(name string, data []byte, now time.Time) (*File, error) {
	p := &parser{file: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, problems.List{{Where: name, Message: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	if len(doc.Content) == 0 {
		return nil, problems.List{{Where: name, Message: "the file is empty: it needs a jobs list"}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, problems.List{{Where: name, Line: root.Line, Message: "the file must be a mapping with a jobs list, not " + describe(root)}}
	}
	var defaults settings
	jobsNode := p.mapping(root, atRoot, "", &defaults)
	if defaults.effort != nil && defaults.thinking != nil && *defaults.effort != *defaults.thinking {
		p.add(defaults.effortLine, "", "effort", fmt.Sprintf("effort %q and thinking %q disagree: thinking is the original's name for effort, give one", *defaults.effort, *defaults.thinking))
	}
	switch {
	case jobsNode == nil:
		p.add(root.Line, "", "jobs", "missing: the file needs a list of jobs")
	case jobsNode.Kind != yaml.SequenceNode:
		p.add(jobsNode.Line, "", "jobs", "want a list of jobs, got "+describe(jobsNode))
	case len(jobsNode.Content) == 0:
		p.add(jobsNode.Line, "", "jobs", "the list is empty: give at least one job")
	}
	f := &File{Path: name}
	seen := map[string]int{}
	if jobsNode != nil && jobsNode.Kind == yaml.SequenceNode {
		for i, n := range jobsNode.Content {
			if name, ok := jobName(n); ok {
				if line, dup := seen[name]; dup {
					p.add(n.Line, strconv.Quote(name), "name", fmt.Sprintf("another job has this name (line %d): names must be unique", line))
				}
				seen[name] = n.Line
			}
			if j := p.job(i, n, &defaults, now); j != nil {
				f.Jobs = append(f.Jobs, j)
			}
		}
	}
	if len(p.found) > 0 {
		return nil, p.found
	}
	return f, nil
}

type parser struct {
	file  string
	found problems.List
}

func (p *parser) add(line int, job, key, msg string) {
	p.found = append(p.found, problems.Problem{Where: p.file, Line: line, Key: at(job, key), Message: msg})
}

// mapping reads the keys of m allowed at w into s, and returns the "jobs" node
// (only allowed at the root).
func (p *parser) mapping(m *yaml.Node, w where, job string, s *settings) *yaml.Node {
	var jobs *yaml.Node
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			p.add(k.Line, job, k.Value, fmt.Sprintf("given twice (first at line %d)", line))
			continue
		}
		seen[k.Value] = k.Line
		if w == atRoot && k.Value == "jobs" {
			jobs = v
			continue
		}
		spec, ok := keys[k.Value]
		if !ok || spec.where&w == 0 {
			hint := "known keys here: " + strings.Join(keysAt(w), ", ")
			if ok {
				hint = "it is only allowed in a job, not at the root"
			}
			p.add(k.Line, job, k.Value, "unknown key; "+hint)
			continue
		}
		if v.Tag == "!!null" {
			continue // "key:" with no value reads as not given
		}
		if err := spec.set(v, s); err != nil {
			p.add(v.Line, job, k.Value, err.Error())
		}
	}
	return jobs
}

// job validates the i-th job, defaults applied; nil when it has problems.
func (p *parser) job(i int, n *yaml.Node, defaults *settings, now time.Time) *Job {
	label := fmt.Sprintf("jobs[%d]", i)
	if n.Kind != yaml.MappingNode {
		p.add(n.Line, label, "", "want a mapping with name, schedule and instruction, got "+describe(n))
		return nil
	}
	before := len(p.found)
	// The name labels every other message, so it is read first.
	if name, ok := jobName(n); ok {
		label = strconv.Quote(name)
	}
	var s settings
	p.mapping(n, atJob, label, &s)
	if len(p.found) > before {
		return nil
	}
	j := &Job{Line: n.Line, Enabled: true, Workspace: DefaultWorkspace}
	switch {
	case s.name == nil:
		p.add(n.Line, label, "name", "missing: every job needs a name (letters, digits, - and _)")
	case !namePattern.MatchString(*s.name):
		p.add(s.nameLine, label, "name", fmt.Sprintf("%q is not a name: use letters, digits, - and _ only", *s.name))
	default:
		j.Name = *s.name
	}
	if s.instruction == nil || strings.TrimSpace(*s.instruction) == "" {
		p.add(max(s.instructionLine, n.Line), label, "instruction", "missing or blank: say what the agent should do")
	} else {
		j.Instruction = *s.instruction
	}
	pick := func(job, root *string, into *string) {
		if job != nil {
			*into = *job
		} else if root != nil {
			*into = *root
		}
	}
	pick(s.workspace, defaults.workspace, &j.Workspace)
	pick(s.model, defaults.model, &j.Model)
	pick(s.systemPrompt, defaults.systemPrompt, &j.SystemPrompt)
	pick(s.appendSystemPrompt, defaults.appendSystemPrompt, &j.AppendSystemPrompt)
	if err := p.effort(&s, defaults, j); err != nil {
		p.add(s.effortLine, label, "effort", err.Error())
	}
	if !localName(j.Workspace) {
		p.add(max(s.workspaceLine, n.Line), label, "workspace", fmt.Sprintf("%q is not a folder under the workspace root: use a relative path without ..", j.Workspace))
	}
	j.NoContinue = first(s.noContinue, defaults.noContinue, false)
	j.Enabled = first(s.enabled, nil, true)
	j.TelegramChatID = first(s.chatID, defaults.chatID, 0)
	j.Timeout = first(s.timeout, defaults.timeout, 0)

	zone := "UTC"
	line := max(s.timezoneLine, defaults.timezoneLine)
	if z := first(s.timezone, defaults.timezone, ""); z != "" {
		zone = z
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		p.add(line, label, "timezone", fmt.Sprintf("%q is not a time zone: use an IANA name such as Europe/Paris, or UTC", zone))
	}
	switch {
	case s.schedule == nil:
		p.add(n.Line, label, "schedule", `missing: give 5 fields ("0 9 * * 1-5") or 6 with seconds first`)
	case err == nil:
		sched, err := ParseSchedule(*s.schedule, loc, now)
		if err != nil {
			p.add(s.scheduleLine, label, "schedule", err.Error())
		}
		j.Schedule = sched
	}
	if len(p.found) > before {
		return nil
	}
	return j
}

// jobName returns a job mapping's name, if it has a valid one.
func jobName(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.MappingNode {
		return "", false
	}
	for k := 0; k+1 < len(n.Content); k += 2 {
		var name *string
		if n.Content[k].Value == "name" && str(n.Content[k+1], &name) == nil && namePattern.MatchString(*name) {
			return *name, true
		}
	}
	return "", false
}

// effort resolves effort and its original alias, thinking.
func (p *parser) effort(s, defaults *settings, j *Job) error {
	pickOne := func(st *settings) (*string, error) {
		if st.effort != nil && st.thinking != nil && *st.effort != *st.thinking {
			return nil, fmt.Errorf("effort %q and thinking %q disagree: thinking is the original's name for effort, give one", *st.effort, *st.thinking)
		}
		if st.effort != nil {
			return st.effort, nil
		}
		return st.thinking, nil
	}
	mine, err := pickOne(s)
	if err != nil {
		return err
	}
	root, err := pickOne(defaults)
	if err != nil {
		return nil // reported once, for the root, by Parse
	}
	j.Effort = first(mine, root, "")
	return nil
}

func first[T any](job, root *T, fallback T) T {
	if job != nil {
		return *job
	}
	if root != nil {
		return *root
	}
	return fallback
}

func localName(ws string) bool {
	return ws == "" || ws == "." || filepath.IsLocal(ws)
}

func str(n *yaml.Node, into **string) error {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return fmt.Errorf("want a string, got %s (quote it)", describe(n))
	}
	v := n.Value
	*into = &v
	return nil
}

func boolean(n *yaml.Node, into **bool) error {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&b) != nil {
		return fmt.Errorf("want true or false, got %s", describe(n))
	}
	*into = &b
	return nil
}

// chatID accepts an integer or a numeric string, as the original did; 0 opts a
// job out of the root's chat.
func chatID(n *yaml.Node, s *settings) error {
	var id int64
	var err error
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!int":
		err = n.Decode(&id)
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		id, err = strconv.ParseInt(strings.TrimSpace(n.Value), 10, 64)
	default:
		err = errors.New("not a number")
	}
	if err != nil {
		return fmt.Errorf("want a Telegram chat id (an integer such as -100123), got %s", describe(n))
	}
	s.chatID = &id
	return nil
}

// timeout accepts a Go duration ("90s", "1h30m") or a number of seconds.
func timeout(n *yaml.Node, s *settings) error {
	bad := fmt.Errorf(`want a duration such as "30m" or "90s", or seconds, got %s`, describe(n))
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!str") {
		return bad
	}
	d, err := quantity.ParseDuration(n.Value, true)
	switch {
	case errors.Is(err, quantity.ErrNotPositive):
		return fmt.Errorf("want a positive duration, got %s", n.Value)
	case err != nil:
		return bad
	}
	s.timeout = &d
	return nil
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return fmt.Sprintf("%s %q", strings.TrimPrefix(n.Tag, "!!"), n.Value)
}
