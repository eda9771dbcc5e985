package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// baseline is the "scripted competent agent" of codegraph-eval §5.7: it answers
// with ripgrep and universal-ctags only, and counts every byte it reads: the
// output of each search and lookup, and each definition it opens. It knows
// nothing of the engine.
type baseline struct {
	root   string
	lang   langRules
	tags   []tag
	byName map[string][]int
	byFile map[string][]int
	files  map[string][]string // lines, read once from disk (the cost is counted per read)
}

// tag is one universal-ctags definition; End is its last line (Line when ctags
// gives no end, or the language's window).
type tag struct {
	Name      string `json:"name"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	End       int    `json:"end"`
	Kind      string `json:"kind"`
	Scope     string `json:"scope"`
	ScopeKind string `json:"scopeKind"`
}

// langRules are the per-language facts the baseline needs.
type langRules struct {
	ctags, rgType string
	funcs         map[string]bool // tag kinds that are functions or methods with a body
	callables     map[string]bool // tag kinds a call can name (abstract methods too)
	types         map[string]bool // tag kinds that can implement an interface
	ifaces        map[string]bool
	// window is how far a function or class extends when ctags gives no end
	// (TypeScript): ±30 lines, codegraph-eval §5.7.
	window   int
	keywords map[string]bool
}

func set(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[w] = true
	}
	return m
}

var rules = map[string]langRules{
	"go": {ctags: "Go", rgType: "go", funcs: set("func"), callables: set("func", "methodSpec"),
		types: set("struct", "type", "talias"), ifaces: set("interface"),
		keywords: set("func", "if", "for", "switch", "return", "go", "defer", "select", "case", "range",
			"make", "new", "len", "cap", "append", "copy", "delete", "panic", "recover", "print", "println",
			"close", "complex", "real", "imag", "min", "max", "clear", "string", "int", "int8", "int16",
			"int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "float32", "float64",
			"byte", "rune", "bool", "error", "any", "interface", "struct", "map", "chan", "complex64", "complex128")},
	"typescript": {ctags: "TypeScript", rgType: "ts", funcs: set("function", "method"), callables: set("function", "method"),
		types: set("class"), ifaces: set("interface"), window: 30,
		keywords: set("function", "if", "for", "while", "switch", "return", "catch", "typeof", "new", "super", "await")},
	"python": {ctags: "Python", rgType: "py", funcs: set("function", "member"), callables: set("function", "member"),
		types: set("class"), ifaces: set("class"),
		keywords: set("def", "if", "elif", "for", "while", "return", "print", "len", "isinstance", "super", "not", "and", "or", "in", "lambda")},
}

// noEnclosing are tag kinds that never enclose a use.
var noEnclosing = set("package", "packageName", "import", "module", "namespace", "unknown", "anonMember")

func newBaseline(ctx context.Context, root, language string) (*baseline, error) {
	r, ok := rules[language]
	if !ok {
		return nil, fmt.Errorf("baseline: no rules for %s", language)
	}
	b := &baseline{root: root, lang: r, byName: map[string][]int{}, byFile: map[string][]int{}, files: map[string][]string{}}
	cmd := exec.CommandContext(ctx, "ctags", "-R", "--sort=no", "--fields=+neKzZ", "--output-format=json", "-f", "-",
		"--languages="+r.ctags, "--exclude=vendor", "--exclude=testdata", "--exclude=node_modules", "--exclude=.albert-code", ".")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("baseline: ctags in %s: %w (install universal-ctags)", root, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var t tag
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil || t.Name == "" {
			continue
		}
		t.Path = filepath.ToSlash(strings.TrimPrefix(t.Path, "./"))
		if t.End < t.Line {
			t.End = t.Line
			if r.window > 0 && (r.funcs[t.Kind] || r.types[t.Kind] || r.ifaces[t.Kind]) {
				t.End = t.Line + r.window
			}
		}
		b.byName[t.Name] = append(b.byName[t.Name], len(b.tags))
		b.byFile[t.Path] = append(b.byFile[t.Path], len(b.tags))
		b.tags = append(b.tags, t)
	}
	return b, sc.Err()
}

// hit is one line of ripgrep output.
type hit struct {
	path string
	line int
	text string
}

// rg runs ripgrep with the fixed flags of codegraph-eval §5.7 (word match of a
// literal when fixed, else a regular expression) and returns the hits and the
// number of characters the agent reads: the whole output.
func (b *baseline) rg(ctx context.Context, pattern string, fixed bool) ([]hit, int, error) {
	args := []string{"--no-heading", "-n", "--color", "never", "--sort", "path", "-t", b.lang.rgType,
		"-g", "!vendor", "-g", "!testdata", "-g", "!node_modules", "-g", "!.albert-code"}
	if fixed {
		args = append(args, "-w", "-F")
	}
	args = append(args, "-e", pattern)
	cmd := exec.CommandContext(ctx, "rg", args...)
	cmd.Dir = b.root
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return nil, 0, nil // no match
	}
	if err != nil {
		return nil, 0, fmt.Errorf("baseline: rg %s: %w", pattern, err)
	}
	var hits []hit
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		path, rest, ok1 := strings.Cut(l, ":")
		num, text, ok2 := strings.Cut(rest, ":")
		n, err := strconv.Atoi(num)
		if !ok1 || !ok2 || err != nil {
			continue
		}
		hits = append(hits, hit{path: path, line: n, text: text})
	}
	return hits, len(out), nil
}

// lookup is a search of the tags by name, restricted to kinds; the agent reads
// one tags-file line per match.
func (b *baseline) lookup(name string, kinds map[string]bool) ([]tag, int) {
	var out []tag
	cost := 0
	for _, i := range b.byName[name] {
		t := b.tags[i]
		if kinds == nil || kinds[t.Kind] {
			out = append(out, t)
			cost += len(fmt.Sprintf("%s\t%s\t%d;\"\t%s", t.Name, t.Path, t.Line, t.Kind)) + 1
		}
	}
	return out, cost
}

// tagAt is the tag whose name is at key, if ctags has one there.
func (b *baseline) tagAt(path string, line int, name string) (tag, bool) {
	for _, i := range b.byFile[path] {
		if t := b.tags[i]; t.Line == line && t.Name == name {
			return t, true
		}
	}
	return tag{}, false
}

// enclosing is the innermost tag whose lines contain line (kinds restricts the
// candidates when set).
func (b *baseline) enclosing(path string, line int, kinds map[string]bool) (tag, bool) {
	best, found := tag{}, false
	for _, i := range b.byFile[path] {
		t := b.tags[i]
		if noEnclosing[t.Kind] || (kinds != nil && !kinds[t.Kind]) || line < t.Line || line > t.End {
			continue
		}
		if !found || t.End-t.Line < best.End-best.Line || (t.End-t.Line == best.End-best.Line && t.Line > best.Line) {
			best, found = t, true
		}
	}
	return best, found
}

// read returns lines first..last of a file and their size in characters.
func (b *baseline) read(path string, first, last int) ([]string, int) {
	lines, ok := b.files[path]
	if !ok {
		data, err := os.ReadFile(filepath.Join(b.root, filepath.FromSlash(path)))
		if err == nil {
			lines = strings.Split(string(data), "\n")
		}
		b.files[path] = lines
	}
	first, last = max(first, 1), min(last, len(lines))
	if first > last {
		return nil, 0
	}
	part := lines[first-1 : last]
	n := 0
	for _, l := range part {
		n += len(l) + 1
	}
	return part, n
}

// tagItem turns a tag into an answer item, keyed like the ground truth.
func tagItem(t tag) Item {
	return Item{QName: t.Scope + "." + t.Name, Kind: t.Kind, File: t.Path, Line: t.Line}
}

// sortedItems returns the items of a keyed set in key order.
func sortedItems(m map[string]Item) []Item {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Item, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}
