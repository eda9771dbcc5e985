package declarative

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// fileSpec is a declarative adapter file as written. See Adapter's doc.
type fileSpec struct {
	Name           string            `toml:"name"`
	Binary         string            `toml:"binary"`
	Argv           []any             `toml:"argv"`
	Prompt         string            `toml:"prompt"`
	Models         []string          `toml:"models"`
	ThinkingLevels []string          `toml:"thinking_levels"`
	Env            map[string]string `toml:"env"`
	Output         struct {
		Format    string        `toml:"format"`
		Text      *selectorSpec `toml:"text"`
		Delta     *selectorSpec `toml:"delta"`
		SessionID *selectorSpec `toml:"session_id"`
		Usage     *selectorSpec `toml:"usage"`
		Error     *selectorSpec `toml:"error"`
	} `toml:"output"`
}

type selectorSpec struct {
	Path  any            `toml:"path"`
	Where map[string]any `toml:"where"`
	Join  string         `toml:"join"`
}

// FileError says what is wrong in an adapter file: where, and what to do.
type FileError struct {
	File string
	// Key is the dotted key at fault ("output.format", "argv[2]"); empty for the file.
	Key string
	Msg string
}

func (e *FileError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("adapter file %s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("adapter file %s: %s: %s", e.File, e.Key, e.Msg)
}

// BuiltinNames are the built-in adapters' names, which a file cannot take (package
// adapter, which imports this one, checks it has them all).
var BuiltinNames = []string{"albert-code", "claude", "codex", "pi"}

var adapterName = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// LoadFile reads and checks a declarative adapter. Unknown keys, wrong types and
// unknown placeholders are errors: a typo must not become a silently ignored option.
func LoadFile(path string) (*Adapter, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("adapter file: %w", err)
	}
	return Parse(path, data)
}

// Parse checks a declarative adapter read from file (named in errors).
func Parse(file string, data []byte) (*Adapter, error) {
	var fs fileSpec
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fs); err != nil {
		return nil, tomlError(file, err)
	}
	fail := func(key, format string, args ...any) error {
		return &FileError{File: file, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	if !adapterName.MatchString(fs.Name) {
		return nil, fail("name", "%q is not a valid adapter name: use lower-case letters, digits, '.', '_' or '-'", fs.Name)
	}
	if slices.Contains(BuiltinNames, fs.Name) {
		return nil, fail("name", "%q is a built-in adapter: choose another name", fs.Name)
	}
	d := &Adapter{name: fs.Name, file: file, binary: fs.Binary, models: fs.Models, levels: fs.ThinkingLevels,
		uses: map[string]bool{}}

	switch fs.Prompt {
	case "", "stdin":
	case "argument":
		d.promptArg = true
	default:
		return nil, fail("prompt", "%q: want \"stdin\" (the default) or \"argument\"", fs.Prompt)
	}
	if len(fs.Argv) == 0 {
		return nil, fail("argv", "missing: give the command, such as argv = [\"{binary}\", \"--json\"]")
	}
	for i, el := range fs.Argv {
		key := fmt.Sprintf("argv[%d]", i)
		a, err := d.compileArg(el, i == 0)
		if err != nil {
			return nil, fail(key, "%v", err)
		}
		d.argv = append(d.argv, a)
	}
	if d.uses["binary"] && d.binary == "" {
		return nil, fail("binary", "missing, and argv uses {binary}: set binary = \"program-name\"")
	}
	if d.promptArg != d.uses["prompt"] {
		if d.promptArg {
			return nil, fail("argv", "prompt = \"argument\" but no {prompt} in argv: add it where the agent expects the prompt")
		}
		return nil, fail("argv", "{prompt} in argv but the prompt goes on stdin: set prompt = \"argument\", or remove {prompt}")
	}
	d.env = map[string]template{}
	for k, v := range fs.Env {
		t, err := parseTemplate(v)
		if err == nil {
			err = checkNames(t.placeholders(), valuePlaceholders)
		}
		if err != nil {
			return nil, fail("env."+k, "%v", err)
		}
		d.env[k] = t
	}
	if err := d.compileOutput(file, fs); err != nil {
		return nil, err
	}
	return d, nil
}

// compileArg checks one argv element: a string, or a group (a list of strings).
func (d *Adapter) compileArg(el any, first bool) (arg, error) {
	switch v := el.(type) {
	case string:
		t, err := parseTemplate(v)
		if err != nil {
			return arg{}, err
		}
		if name, ok := t.only(); ok && name == listPlaceholder {
			if first {
				return arg{}, errors.New("{extra_args} cannot be the program")
			}
			d.uses[name] = true
			return arg{extra: true}, nil
		}
		if err := checkNames(t.placeholders(), valuePlaceholders); err != nil {
			return arg{}, err
		}
		d.note(t)
		return arg{parts: []template{t}}, nil
	case []any:
		if first {
			return arg{}, errors.New("the program must be a string, not a group")
		}
		if len(v) == 0 {
			return arg{}, errors.New("empty group: remove it")
		}
		var a arg
		for j, x := range v {
			s, ok := x.(string)
			if !ok {
				return arg{}, fmt.Errorf("group element %d is a %T: a group holds strings only", j, x)
			}
			t, err := parseTemplate(s)
			if err != nil {
				return arg{}, err
			}
			if name, ok := t.only(); ok && j == 0 && slices.Contains(conditionPlaceholders, name) {
				a.condition = name
				d.uses[name] = true
				continue
			}
			if err := checkNames(t.placeholders(), valuePlaceholders); err != nil {
				return arg{}, fmt.Errorf("%w (a condition such as {continue} may only open a group)", err)
			}
			d.note(t)
			a.parts = append(a.parts, t)
		}
		if len(a.parts) == 0 {
			return arg{}, errors.New("a group with a condition and no arguments: add the arguments it stands for")
		}
		return a, nil
	default:
		return arg{}, fmt.Errorf("a %T: want a string or a list of strings", el)
	}
}

func (d *Adapter) note(t template) {
	for _, n := range t.placeholders() {
		d.uses[n] = true
	}
}

func checkNames(names []string, allowed []string) error {
	for _, n := range names {
		if !slices.Contains(allowed, n) {
			return fmt.Errorf("unknown placeholder {%s}: known are {%s}, the conditions {%s} and {%s}",
				n, strings.Join(valuePlaceholders, "}, {"), strings.Join(conditionPlaceholders, "}, {"), listPlaceholder)
		}
	}
	return nil
}

func (d *Adapter) compileOutput(file string, fs fileSpec) error {
	fail := func(key, format string, args ...any) error {
		return &FileError{File: file, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	o := fs.Output
	selectors := []struct {
		key  string
		spec *selectorSpec
		dst  **selector
	}{
		{"output.text", o.Text, &d.text}, {"output.delta", o.Delta, &d.delta},
		{"output.session_id", o.SessionID, &d.session}, {"output.usage", o.Usage, &d.usage},
		{"output.error", o.Error, &d.errs},
	}
	switch o.Format {
	case "", "text":
		for _, s := range selectors {
			if s.spec != nil {
				return fail(s.key, "only for format = \"jsonl\": remove it, or set output.format = \"jsonl\"")
			}
		}
		return nil
	case "jsonl":
		d.jsonl = true
	default:
		return fail("output.format", "%q: want \"text\" or \"jsonl\"", o.Format)
	}
	if o.Text == nil {
		return fail("output.text", "missing: with format = \"jsonl\", say where the answer is, such as [output.text] path = \"result\"")
	}
	for _, s := range selectors {
		if s.spec == nil {
			continue
		}
		sel, err := compileSelector(s.spec)
		if err != nil {
			return fail(s.key, "%v", err)
		}
		*s.dst = sel
	}
	return nil
}

func compileSelector(s *selectorSpec) (*selector, error) {
	sel := &selector{join: s.Join}
	switch p := s.Path.(type) {
	case string:
		sel.paths = []jsonPath{parseJSONPath(p)}
	case []any:
		for _, x := range p {
			ps, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("path: a %T among the paths: want strings", x)
			}
			sel.paths = append(sel.paths, parseJSONPath(ps))
		}
	case nil:
		return nil, errors.New("path missing: give the JSON path of the value, such as path = \"item.text\"")
	default:
		return nil, fmt.Errorf("path is a %T: want a string or a list of strings", p)
	}
	if len(sel.paths) == 0 {
		return nil, errors.New("path is an empty list")
	}
	for k, v := range s.Where {
		var want []string
		switch v := v.(type) {
		case string:
			want = []string{v}
		case []any:
			for _, x := range v {
				xs, ok := x.(string)
				if !ok {
					return nil, fmt.Errorf("where.%s: a %T in the list: want strings", k, x)
				}
				want = append(want, xs)
			}
		default:
			return nil, fmt.Errorf("where.%s is a %T: want a string or a list of strings", k, v)
		}
		sel.where = append(sel.where, condition{path: parseJSONPath(k), values: want})
	}
	// Map order is random: sorted, so matching is deterministic.
	slices.SortFunc(sel.where, func(a, b condition) int {
		return strings.Compare(strings.Join(a.path, "."), strings.Join(b.path, "."))
	})
	return sel, nil
}

// tomlError turns go-toml's errors into a FileError naming the key and the line.
func tomlError(file string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		row, _ := e.Position()
		return &FileError{File: file, Key: strings.Join(e.Key(), "."),
			Msg: fmt.Sprintf("unknown key (line %d): check its spelling against docs/serve-adapters.md", row)}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return &FileError{File: file, Key: strings.Join(de.Key(), "."), Msg: fmt.Sprintf("line %d column %d: %s", row, col, tomlWords(de.Error()))}
	}
	return &FileError{File: file, Msg: tomlWords(err.Error())}
}

// tomlWords rewrites go-toml's type errors, which name Go types, in TOML words.
func tomlWords(msg string) string {
	m := typeMismatch.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	want, ok := goTypeWords[m[2]]
	if !ok {
		want = m[2]
	}
	return fmt.Sprintf("this is a TOML %s: want %s", m[1], want)
}

var typeMismatch = regexp.MustCompile(`cannot decode TOML (\w+) into .* of type (.+)$`)

var goTypeWords = map[string]string{
	"[]string": "a list of strings", "string": "a string", "map[string]string": "a table of strings",
	"[]interface {}": "a list", "map[string]interface {}": "a table",
}
