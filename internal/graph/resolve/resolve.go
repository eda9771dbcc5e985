// Package resolve is the code graph's cross-file resolution pass for the languages
// tree-sitter extracts: it follows each file's imports to the repository's files,
// and turns the call sites and bases the extractor left unresolved into edges
// (resolution `import`, or `name` as a last resort), keeping the rest unresolved
// with a reason. It runs after the indexer has stored the facts, and redoes only
// the files a change can affect.
package resolve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// passVersion is part of the configuration fingerprint: a build that resolves
// differently re-resolves every file once.
const passVersion = "5"

// Counts say what one pass did, over the files it resolved again.
type Counts struct {
	// Full: every file was resolved again (first pass, or go.mod, tsconfig.json or
	// the pass itself changed).
	Full bool `json:"full"`
	// Files whose sites were resolved again.
	Files int `json:"files"`
	// ByImport are sites resolved through imports, packages or base classes;
	// ByName those matched by a unique name; Unresolved those left, with a reason.
	ByImport   int `json:"by_import"`
	ByName     int `json:"by_name"`
	Unresolved int `json:"unresolved"`
	// Import targets resolved to a repository file, left external (packages,
	// standard library: not misses) and not found.
	ImportsResolved int `json:"imports_resolved"`
	ImportsExternal int `json:"imports_external"`
	ImportsMissing  int `json:"imports_missing"`
}

// Options tune Update.
type Options struct {
	// Full resolves every file again, whatever changed.
	Full bool
}

// Update brings the derived edges and unresolved sites up to date with the facts
// ReplaceFiles wrote since the last pass. root is the repository, read for go.mod
// and tsconfig.json.
func Update(ctx context.Context, st *store.Store, root string, opts Options) (*Counts, error) {
	files, err := st.PassFiles(ctx)
	if err != nil {
		return nil, err
	}
	tree := NewTree(passFiles(files))
	config, err := readConfig(root, tree)
	if err != nil {
		return nil, err
	}
	pending, err := st.PendingFiles(ctx)
	if err != nil {
		return nil, err
	}
	old, _, err := st.Meta(ctx, store.MetaResolveConfig)
	if err != nil {
		return nil, err
	}
	counts := &Counts{Full: opts.Full || old != config}
	v := newView(ctx, st, tree)
	if counts.Full || len(pending) > preloadAbove {
		v.preload()
	}
	for i, p := range pending {
		if tree.Has(p.Path) {
			pending[i].Shape = v.shape(p.Path)
		}
	}
	if v.err != nil {
		return nil, v.err
	}
	var todo []string
	if counts.Full {
		for _, f := range files {
			todo = append(todo, f.Path)
		}
	} else if todo, err = affected(ctx, st, tree, pending); err != nil {
		return nil, err
	}
	if len(todo) > preloadAbove {
		v.preload()
	}
	var results []store.FileResolution
	for _, p := range todo {
		if lang := languages[tree.Language(p)]; lang == nil || tree.Typed(p) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		results = append(results, v.resolveFile(p, counts))
		if v.err != nil {
			return nil, fmt.Errorf("resolve %s: %w", p, v.err)
		}
	}
	if len(results) == 0 && len(pending) == 0 && old == config {
		return counts, nil // nothing changed: no write, no lock taken
	}
	if err := st.ApplyResolution(ctx, results, pending, config); err != nil {
		return nil, err
	}
	return counts, nil
}

func passFiles(files []store.PassFile) []File {
	out := make([]File, len(files))
	for i, f := range files {
		out[i] = File{Path: f.Path, Language: f.Language, Typed: f.Typed}
	}
	return out
}

// readConfig reads go.mod and tsconfig.json at root into tree and returns the
// fingerprint of everything the pass reads besides the facts. A tsconfig.json
// that does not parse is ignored (bare specifiers stay external), not fatal.
func readConfig(root string, tree *Tree) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "pass %s\nlanguages %s\n", passVersion, strings.Join(Languages(), ","))
	for _, name := range []string{"go.mod", "tsconfig.json"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("resolve: read %s: %w", name, err)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
		switch name {
		case "go.mod":
			tree.GoModule = goModulePath(b)
		case "tsconfig.json":
			if c, err := ParseTSConfig("", b); err == nil {
				tree.TS = c
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// resolveFile resolves the imports and sites of one file.
func (v *view) resolveFile(file string, c *Counts) store.FileResolution {
	c.Files++
	d := newDeps(file)
	fr := store.FileResolution{Path: file}
	sc := v.scopeOf(file)
	seen := map[graph.Edge]bool{}
	for _, im := range sc.imports {
		d.module(im.key)
		switch {
		case im.mod.External:
			c.ImportsExternal++
			continue
		case !im.mod.Found():
			c.ImportsMissing++
			continue
		}
		c.ImportsResolved++
		d.files(im.mod.Files)
		targets := im.mod.Files
		if im.symbol != "" && im.symbol != "*" {
			// `from pkg import mod`: the import reaches the submodule's file too.
			if l := v.inModule(im.mod, im.symbol, sc.lang, d, 0); l.status == found && !l.isNode() {
				targets = append(append([]string{}, targets...), l.mod.Files...)
			}
		}
		conf := confImport
		if im.mod.Alternatives > 0 {
			conf = confImportChoice
		}
		for _, t := range targets {
			e := graph.Edge{From: file, To: t, Kind: graph.EdgeImports, Confidence: conf,
				Resolution: graph.ResolvedImport, File: file, Line: im.line}
			if !seen[e] {
				seen[e] = true
				fr.Edges = append(fr.Edges, e)
			}
		}
	}
	for _, s := range v.sitesOf(file) {
		if s.Kind == treesitter.UnionMember || s.Kind == treesitter.AttributeType { // facts the lookups read, not uses
			continue
		}
		cls := classOf(s.Kind, s.Name)
		if s.Name == exprName || (!strings.Contains(s.Name, ".") && v.definesName(file, s.Name, cls)) {
			// Not a name, or a name the file itself defines more than once: the
			// extractor's reason stands.
			fr.Unresolved = append(fr.Unresolved, s)
			c.Unresolved++
			continue
		}
		o := v.resolveName(file, s.From, s.Name, cls, d)
		if o.to == "" {
			s.Reason = o.reason
			fr.Unresolved = append(fr.Unresolved, s)
			c.Unresolved++
			continue
		}
		for _, to := range append([]string{o.to}, o.also...) {
			fr.Edges = append(fr.Edges, graph.Edge{From: s.From, To: to, Kind: s.Kind, Confidence: o.conf,
				Resolution: o.res, File: file, Line: s.Line})
		}
		if o.res == graph.ResolvedName {
			c.ByName++
		} else {
			c.ByImport++
		}
	}
	if sc.lang != nil && sc.lang.Implements != nil {
		fr.Edges = append(fr.Edges, sc.lang.Implements(v, file, d)...)
	}
	v.goStored(&fr)
	fr.Deps = d.list()
	return fr
}

// affected lists the files whose resolution a batch of pending paths can change:
// the pending files themselves; when a pending file's shape changed (see
// view.shape), the files that read it (an import, a base class); files whose imports name a module that appeared or went (a file's
// module keys, see moduleKeys);
// and files that matched a name by counting definitions, when that count is no
// longer what they saw. The names a pending file defined before its change come
// from the pass's last record, those it defines now from the store.
func affected(ctx context.Context, st *store.Store, tree *Tree, pending []store.Pending) ([]string, error) {
	if len(pending) == 0 {
		return nil, nil
	}
	out := map[string]bool{}
	all := make([]string, 0, len(pending))
	for _, p := range pending {
		all = append(all, p.Path)
		if tree.Has(p.Path) {
			out[p.Path] = true
		}
	}
	shapes, err := st.ShapesBefore(ctx, all)
	if err != nil {
		return nil, err
	}
	// Only the files whose shape changed (or that appeared or went) can change
	// what their dependents resolve to.
	var paths []string
	for _, p := range pending {
		if before, ok := shapes[p.Path]; !ok || before != p.Shape || !tree.Has(p.Path) {
			paths = append(paths, p.Path)
		}
	}
	known, err := st.SeenBefore(ctx, paths)
	if err != nil {
		return nil, err
	}
	existed := map[string]bool{}
	for _, p := range known {
		existed[p] = true
	}
	// Only a file that appeared or went changes which modules exist.
	var keys []string
	for _, p := range paths {
		if tree.Has(p) != existed[p] {
			keys = append(keys, moduleKeys(p)...)
		}
	}
	for _, q := range []struct {
		kind store.DepKind
		keys []string
	}{{store.DepFile, paths}, {store.DepModule, keys}} {
		deps, err := st.Dependents(ctx, q.kind, q.keys)
		if err != nil {
			return nil, err
		}
		for _, d := range deps {
			out[d.File] = true
		}
	}
	before, err := st.NamesBefore(ctx, paths)
	if err != nil {
		return nil, err
	}
	now, err := st.NamesNow(ctx, paths)
	if err != nil {
		return nil, err
	}
	deps, err := st.Dependents(ctx, store.DepName, append(before, now...))
	if err != nil {
		return nil, err
	}
	counted := map[countKey]int{}
	for _, d := range deps {
		if out[d.File] {
			continue
		}
		k := countKey{d.Key, d.Filter}
		n, ok := counted[k]
		if !ok {
			langs, cls, known := parseFilter(d.Filter)
			if !known {
				out[d.File] = true
				continue
			}
			if n, _, err = st.CountDefinitions(ctx, d.Key, langs, cls.kinds); err != nil {
				return nil, err
			}
			counted[k] = n
		}
		if n != d.Seen {
			out[d.File] = true
		}
	}
	list := make([]string, 0, len(out))
	for f := range out {
		if tree.Has(f) {
			list = append(list, f)
		}
	}
	sort.Strings(list)
	return list, nil
}
