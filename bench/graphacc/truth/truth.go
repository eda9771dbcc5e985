// Package truth is the ground-truth file of the code-graph accuracy benchmark
// (bench/graphacc/FORMAT.md): what a compiler says a corpus defines, calls,
// references and implements. The ground-truth programs write it; the harness
// (bench/cmd/graphacc) reads it. It imports nothing from the engine it measures.
package truth

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Definition kinds.
const (
	KindFunction  = "function"
	KindMethod    = "method"
	KindClass     = "class"
	KindStruct    = "struct"
	KindInterface = "interface"
	KindType      = "type"
	KindTypeAlias = "type_alias"
	KindEnum      = "enum"
	KindConstant  = "constant"
	KindVariable  = "variable"
	KindField     = "field"
)

// Call dispatch values.
const (
	DispatchStatic    = "static"
	DispatchInterface = "interface"
)

// File is one corpus's ground truth.
type File struct {
	Language        string           `json:"language"`
	Tool            string           `json:"tool"`
	Root            string           `json:"root"`
	Files           []string         `json:"files"`
	Definitions     []Definition     `json:"definitions"`
	Calls           []Call           `json:"calls"`
	Unresolvable    []Unresolvable   `json:"unresolvable_calls"`
	References      []Reference      `json:"references"`
	Implementations []Implementation `json:"implementations"`
	Manifest        map[string]any   `json:"manifest,omitempty"`
}

// Definition is one named definition; Key is "<file>:<line of the name>".
type Definition struct {
	Key       string `json:"key"`
	Name      string `json:"name"`
	Qualified string `json:"qualified"`
	Kind      string `json:"kind"`
	Generated bool   `json:"generated"`
	Abstract  bool   `json:"abstract,omitempty"`
}

// Call is a resolved call from one definition to another.
type Call struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Dispatch string `json:"dispatch"`
}

// Unresolvable is a call site the compiler cannot resolve; Name is the callee's
// last identifier when it has one.
type Unresolvable struct {
	From string `json:"from"`
	Site string `json:"site"`
	Name string `json:"name,omitempty"`
}

// Reference is a use of To inside From (a definition key, or a file path for a
// use at top level).
type Reference struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Implementation says Type implements Interface.
type Implementation struct {
	Type      string `json:"type"`
	Interface string `json:"interface"`
}

// Key builds a definition key.
func Key(file string, line int) string { return file + ":" + strconv.Itoa(line) }

// SplitKey splits a key into its file and line; ok is false for a bare file path.
func SplitKey(key string) (file string, line int, ok bool) {
	i := strings.LastIndexByte(key, ':')
	if i < 0 {
		return key, 0, false
	}
	n, err := strconv.Atoi(key[i+1:])
	if err != nil {
		return key, 0, false
	}
	return key[:i], n, true
}

// Read loads and checks a ground-truth file.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read ground truth: %w", err)
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("read ground truth %s: %w", path, err)
	}
	if err := f.Check(); err != nil {
		return nil, fmt.Errorf("ground truth %s: %w", path, err)
	}
	return &f, nil
}

// Check reports the first way f breaks the format: no language, root or files, a
// definition outside the file universe, an edge whose end is not a definition.
func (f *File) Check() error {
	if f.Language == "" || f.Root == "" || len(f.Files) == 0 {
		return fmt.Errorf("language %q, root %q and %d files: a ground truth names all three", f.Language, f.Root, len(f.Files))
	}
	files := make(map[string]bool, len(f.Files))
	for _, p := range f.Files {
		files[p] = true
	}
	defs := make(map[string]bool, len(f.Definitions))
	for _, d := range f.Definitions {
		file, _, ok := SplitKey(d.Key)
		if !ok || !files[file] {
			return fmt.Errorf("definition %s (%s): key is not <file in files>:<line>", d.Key, d.Name)
		}
		defs[d.Key] = true
	}
	isDef := func(what, k string) error {
		if !defs[k] {
			return fmt.Errorf("%s %s is not a definition key", what, k)
		}
		return nil
	}
	for _, c := range f.Calls {
		if err := isDef("call from", c.From); err != nil {
			return err
		}
		if err := isDef("call to", c.To); err != nil {
			return err
		}
	}
	for _, r := range f.References {
		if err := isDef("reference to", r.To); err != nil {
			return err
		}
		if !defs[r.From] && !files[r.From] {
			return fmt.Errorf("reference from %s is neither a definition nor a file", r.From)
		}
	}
	for _, i := range f.Implementations {
		if err := isDef("implementing type", i.Type); err != nil {
			return err
		}
		if err := isDef("implemented interface", i.Interface); err != nil {
			return err
		}
	}
	return nil
}

// Sort puts every list in a fixed order and drops duplicate edges, so that two
// runs write the same bytes.
func (f *File) Sort() {
	sort.Strings(f.Files)
	sort.Slice(f.Definitions, func(i, j int) bool {
		a, b := f.Definitions[i], f.Definitions[j]
		if a.Key != b.Key {
			return keyLess(a.Key, b.Key)
		}
		return a.Qualified < b.Qualified
	})
	f.Calls = sortUnique(f.Calls, func(a, b Call) int { return cmpKeys(a.From, b.From, a.To, b.To, a.Dispatch, b.Dispatch) })
	f.Unresolvable = sortUnique(f.Unresolvable, func(a, b Unresolvable) int { return cmpKeys(a.From, b.From, a.Site, b.Site, a.Name, b.Name) })
	f.References = sortUnique(f.References, func(a, b Reference) int { return cmpKeys(a.From, b.From, a.To, b.To, "", "") })
	f.Implementations = sortUnique(f.Implementations, func(a, b Implementation) int {
		return cmpKeys(a.Type, b.Type, a.Interface, b.Interface, "", "")
	})
}

// Write writes f as indented JSON.
func (f *File) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(f)
}

func sortUnique[T comparable](s []T, cmp func(a, b T) int) []T {
	sort.Slice(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
	out := s[:0]
	for i, x := range s {
		if i > 0 && x == s[i-1] {
			continue
		}
		out = append(out, x)
	}
	if out == nil {
		out = []T{}
	}
	return out
}

func cmpKeys(a1, b1, a2, b2, a3, b3 string) int {
	for _, p := range [][2]string{{a1, b1}, {a2, b2}} {
		if p[0] != p[1] {
			if keyLess(p[0], p[1]) {
				return -1
			}
			return 1
		}
	}
	return strings.Compare(a3, b3)
}

// keyLess orders keys by file, then by line as a number.
func keyLess(a, b string) bool {
	fa, la, _ := SplitKey(a)
	fb, lb, _ := SplitKey(b)
	if fa != fb {
		return fa < fb
	}
	return la < lb
}
