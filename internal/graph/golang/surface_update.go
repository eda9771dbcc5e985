package golang

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// maxSurfaceUpdateFiles bounds how many files an update re-checks from source after a
// surface change. A file costs what it costs in the type-checking half of a full
// load (which checks every file from source, after go list has recompiled the
// changed packages and their importers), so re-checking is never the slower way;
// measured, re-checking all 1,000 files of gen-go-1000 and storing them took
// 2.6 s of CPU against 3–4 s for a full load. The bound only caps an edit that
// reaches a very large module. A judgement call.
const maxSurfaceUpdateFiles = 5000

// maxImplementsRounds bounds how often an update grows the set of packages it
// checks from source for implements edges; each round usually adds none.
const maxImplementsRounds = 4

// surfaceUpdate is one update after a surface change: the variant graph after
// the edit, the packages re-checked from source, and the type universes export
// data is read into.
type surfaceUpdate struct {
	root string
	snap *Snapshot
	// variants is the variant graph after the edit: snap's, with new imports for
	// the variants that compile an edited file whose imports changed.
	variants       map[string]*Variant
	importsChanged map[string]bool // variants whose imports changed, by key
	fset           *token.FileSet
	parsed         map[string]*parsedFile     // by path relative to the root
	universes      map[string]*universe       // by module prefix and test suffix
	fromSource     map[string]*checked        // variants re-checked from source, by key
	fromExport     map[string]*types.Package  // variants read from export data, by key
	reachOf        map[string]map[string]bool // reach's answers, by key
	stdSeenOf      map[string][]string        // stdSeen's answers, by key
	modulePaths    map[string]bool            // prefix + package path of every module variant
	exportErr      error                      // the first export data that could not be read
	privateChecks  map[string]*checked        // checkPrivately's variants, outside their universe
}

type parsedFile struct {
	file          *ast.File
	c             content
	header, build string          // fileHeader, fileBuild
	idents        map[string]bool // the names the file mentions, when asked
}

// checked is a variant type-checked from source.
type checked struct {
	v     *Variant
	pkg   *types.Package
	info  *types.Info
	files []*ast.File
}

// universe is the package path → package map export data is read into. The
// variants of one test ("p [p.test]", "q [p.test]") form an overlay over the
// plain packages: a path they own resolves to the test's copy, any other to the
// plain universe's package, which the overlay shares so that types unify.
type universe struct {
	base *universe // nil for a plain universe
	own  map[string]bool
	pkgs map[string]*types.Package
}

// view is the map an import or a read works in.
func (u *universe) view() map[string]*types.Package {
	if u.base == nil {
		return u.pkgs
	}
	v := maps.Clone(u.base.pkgs)
	maps.Copy(v, u.pkgs)
	return v
}

// commit keeps what a read or check added to view.
func (u *universe) commit(view map[string]*types.Package) {
	if u.base == nil {
		return
	}
	for path, p := range view {
		switch {
		case u.own[path]:
			u.pkgs[path] = p
		case u.base.pkgs[path] == nil:
			u.base.pkgs[path] = p
		}
	}
}

// splitKey splits a variant key into its module prefix ("dir|"), its package ID
// without the test suffix, and the test suffix (" [p.test]").
func splitKey(key string) (prefix, id, suffix string) {
	if i := strings.IndexByte(key, '|'); i >= 0 {
		prefix, key = key[:i+1], key[i+1:]
	}
	if i := strings.Index(key, " ["); i >= 0 {
		return prefix, key[:i], key[i:]
	}
	return prefix, key, ""
}

func newSurfaceUpdate(root string, snap *Snapshot) *surfaceUpdate {
	su := &surfaceUpdate{root: root, snap: snap, variants: maps.Clone(snap.Variants), importsChanged: map[string]bool{},
		fset: token.NewFileSet(), parsed: map[string]*parsedFile{}, universes: map[string]*universe{},
		fromSource: map[string]*checked{}, fromExport: map[string]*types.Package{},
		reachOf: map[string]map[string]bool{}, stdSeenOf: map[string][]string{}, modulePaths: map[string]bool{},
		privateChecks: map[string]*checked{}}
	for key, v := range snap.Variants {
		prefix, _, _ := splitKey(key)
		su.modulePaths[prefix+v.PkgPath] = true
	}
	return su
}

func (su *surfaceUpdate) universe(key string) *universe {
	prefix, _, suffix := splitKey(key)
	plain := su.universes[prefix]
	if plain == nil {
		plain = &universe{pkgs: map[string]*types.Package{}}
		su.universes[prefix] = plain
	}
	if suffix == "" {
		return plain
	}
	u := su.universes[prefix+suffix]
	if u == nil {
		u = &universe{base: plain, own: map[string]bool{}, pkgs: map[string]*types.Package{}}
		for k, v := range su.variants {
			if p, _, s := splitKey(k); p == prefix && s == suffix {
				u.own[v.PkgPath] = true
			}
		}
		su.universes[prefix+suffix] = u
	}
	return u
}

// parse reads and parses a file once for every variant that compiles it, as
// go/packages does.
func (su *surfaceUpdate) parse(rel string) (*parsedFile, error) {
	if p := su.parsed[rel]; p != nil {
		return p, nil
	}
	name := filepath.Join(su.root, filepath.FromSlash(rel))
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, fullLoad("%s: %v", rel, err)
	}
	f, err := parser.ParseFile(su.fset, name, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fullLoad("%s does not parse", rel)
	}
	sum := sha256.Sum256(src)
	p := &parsedFile{file: f, c: content{hash: hex.EncodeToString(sum[:]), size: int64(len(src))},
		header: fileHeader(f, src), build: fileBuild(f, src)}
	if rec, ok := su.snap.Files[rel]; ok {
		if p.build != rec.Build {
			return nil, fullLoad("the build constraints or package clause of %s changed", rel)
		}
	}
	su.parsed[rel] = p
	return p, nil
}

// run re-checks from source the variants that compile the changed files and
// the variants of the module that import them and may see a difference
// (recheckAffected), in dependency order; imports outside that set come from export
// data (nothing outside it depends on a changed package). It extracts every file
// those variants claim, with the implements edges a full load would give them,
// re-extracts the packages whose implements edges towards a changed interface
// may have moved (implementers), returns the files whose facts changed, and a
// snapshot pointing at fresh export data written into opts.ExportDir.
func (su *surfaceUpdate) run(ctx context.Context, changed []string, opts Options) (*UpdateResult, error) {
	root, snap := su.root, su.snap
	compiledBy := map[string][]string{}
	for key, v := range snap.Variants {
		for _, rel := range v.Files {
			compiledBy[rel] = append(compiledBy[rel], key)
		}
	}
	seeds := map[string]bool{}
	res := &UpdateResult{Implements: true}
	var edited []string
	for _, rel := range changed {
		rec, ok := snap.Files[rel]
		if !ok || rec.Variant == "" {
			h, b, _ := headerOf(filepath.Join(root, filepath.FromSlash(rel)))
			if ok && (h != rec.Header || b != rec.Build) {
				return nil, fullLoad("the build constraints or imports of %s changed", rel)
			}
			res.Syntactic = append(res.Syntactic, rel)
			continue
		}
		edited = append(edited, rel)
		for _, key := range compiledBy[rel] {
			seeds[key] = true
		}
	}
	if err := su.applyNewImports(edited, compiledBy); err != nil {
		return nil, err
	}
	candidates := su.reverseClosure(seeds)
	order, err := su.order(candidates)
	if err != nil {
		return nil, err
	}
	recheck, order, err := su.recheckAffected(ctx, order, seeds)
	if err != nil {
		return nil, err
	}
	// Implements edges may need more packages from source: those declaring a type
	// whose edge to a changed interface may move (implementers), and those whose
	// export data lacks an unexported type a pair needs. Each round re-checks the
	// grown set afresh, so that every package a pair compares is from one check.
	set := maps.Clone(recheck)
	more := map[string]bool{}
	for _, k := range su.implementers(recheck) {
		more[k] = true
	}
	var ex *extraction
	var decls []*typeDecl
	for round := 0; ; round++ {
		if len(more) > 0 {
			if round == maxImplementsRounds {
				return nil, fullLoad("implements edges need the source of too many packages")
			}
			maps.Copy(set, more)
			if order, err = su.order(set); err != nil {
				return nil, err
			}
			su.reset()
			for _, key := range order {
				if err := su.check(key); err != nil {
					return nil, err
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ex = newExtraction(su.root)
		decls = su.extract(ex, order)
		more = su.implements(decls, set)
		if len(more) > 0 && su.exportErr == nil && su.checkPrivately(more) {
			// The missing interfaces may come whole out of a private check: the
			// pairs are computed again (edges are deduplicated).
			more = su.implements(decls, set)
		}
		if su.exportErr != nil {
			return nil, su.exportErr
		}
		if len(more) == 0 {
			break
		}
	}
	files := ex.files()
	res.Snapshot, err = su.snapshot(order, decls, edited, opts.ExportDir)
	if err != nil {
		return nil, err
	}
	// An unedited file whose facts did not change need not be stored again (most
	// importers of a changed package, on most edits).
	recorded := maps.Clone(res.Snapshot.Files)
	recordFacts(res.Snapshot, files)
	isEdited := map[string]bool{}
	for _, rel := range edited {
		isEdited[rel] = true
	}
	for _, f := range files {
		if isEdited[f.Path] || recorded[f.Path].Facts == "" || recorded[f.Path].Facts != res.Snapshot.Files[f.Path].Facts {
			res.Files = append(res.Files, f)
		}
	}
	res.Rechecked = len(order)
	return res, nil
}

// reverseClosure is seeds and every variant importing one of them, transitively:
// the variants an edit may reach.
func (su *surfaceUpdate) reverseClosure(seeds map[string]bool) map[string]bool {
	importers := map[string][]string{}
	for key, v := range su.variants {
		for _, imp := range v.Imports {
			if imp.Variant != "" {
				importers[imp.Variant] = append(importers[imp.Variant], key)
			}
		}
	}
	out := map[string]bool{}
	var visit func(key string)
	visit = func(key string) {
		if out[key] {
			return
		}
		out[key] = true
		for _, k := range importers[key] {
			visit(k)
		}
	}
	for key := range seeds {
		visit(key)
	}
	return out
}

// order sorts the variants of set so that each comes after those it imports.
func (su *surfaceUpdate) order(set map[string]bool) ([]string, error) {
	keys := slices.Sorted(maps.Keys(set))
	state := map[string]int{} // 1 visiting, 2 done
	var out []string
	var visit func(key string) error
	visit = func(key string) error {
		switch state[key] {
		case 1:
			return fullLoad("import cycle through %s", su.variants[key].PkgPath)
		case 2:
			return nil
		}
		state[key] = 1
		v := su.variants[key]
		for _, path := range slices.Sorted(maps.Keys(v.Imports)) {
			if k := v.Imports[path].Variant; set[k] {
				if err := visit(k); err != nil {
					return err
				}
			}
		}
		state[key] = 2
		out = append(out, key)
		return nil
	}
	for _, key := range keys {
		if err := visit(key); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// check type-checks variant key from source and puts it in its universe in
// place of its export data.
func (su *surfaceUpdate) check(key string) error {
	c, err := su.compile(key, true)
	if err != nil {
		return err
	}
	su.fromSource[key] = c
	return nil
}

// compile type-checks variant key from source; publish puts the package in its
// universe.
func (su *surfaceUpdate) compile(key string, publish bool) (*checked, error) {
	v := su.variants[key]
	if v.Incapable != "" {
		return nil, fullLoad("%s: %s", v.PkgPath, v.Incapable)
	}
	files := make([]*ast.File, len(v.Files))
	for i, rel := range v.Files {
		p, err := su.parse(rel)
		if err != nil {
			return nil, err
		}
		files[i] = p.file
	}
	u := su.universe(key)
	view := u.view()
	var importErr error
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		dep, ok := v.Imports[path]
		if !ok {
			importErr = fullLoad("%s imports %s, unknown to the last load", v.PkgPath, path)
			return nil, importErr
		}
		if c := su.fromSource[dep.Variant]; c != nil {
			return c.pkg, nil
		}
		if p := view[dep.PkgPath]; p != nil && p.Complete() {
			return p, nil
		}
		p, err := readExport(su.fset, view, dep.Export, dep.PkgPath)
		if err != nil {
			importErr = fullLoad("export data of %s: %v", dep.PkgPath, err)
		}
		return p, err
	})
	pkg, info, typeErr := checkFiles(su.fset, v, files, imp)
	if importErr != nil {
		return nil, importErr
	}
	if typeErr != nil {
		return nil, fullLoad("%s does not type-check: %v", v.PkgPath, typeErr)
	}
	if publish {
		view[v.PkgPath] = pkg
	}
	u.commit(view)
	return &checked{v: v, pkg: pkg, info: info, files: files}, nil
}

// packageOf is variant key's package as every other package sees it: re-checked, or
// read from its export data.
func (su *surfaceUpdate) packageOf(key string) *types.Package {
	if c := su.fromSource[key]; c != nil {
		return c.pkg
	}
	if p, ok := su.fromExport[key]; ok {
		return p
	}
	v := su.variants[key]
	u := su.universe(key)
	view := u.view()
	p := view[v.PkgPath]
	if p == nil || !p.Complete() {
		var err error
		if p, err = readExport(su.fset, view, v.Export, v.PkgPath); err != nil {
			su.fail(v.PkgPath, err)
			p = nil
		}
		u.commit(view)
	}
	su.fromExport[key] = p
	return p
}

// fail records the first export data that could not be read: without it an
// implements edge could be missed, so the update refuses.
func (su *surfaceUpdate) fail(pkgPath string, err error) {
	if su.exportErr == nil {
		su.exportErr = fullLoad("export data of %s: %v", pkgPath, err)
	}
}

// reset forgets the packages checked and read so far. Update's first pass
// checks each edited variant against export data alone; when it checked
// several, one may have read a package that the update then re-checks, and
// the stale copy must not meet the fresh one.
func (su *surfaceUpdate) reset() {
	su.universes, su.fromSource, su.fromExport = map[string]*universe{}, map[string]*checked{}, map[string]*types.Package{}
	su.privateChecks = map[string]*checked{}
}

// checkPrivately checks from source, without putting them in their universe,
// the variants of keys not checked so far, and reports whether it checked any.
// An unexported interface absent from export data comes from such a check when
// its methods mention no type of its own package (privateInterface): the
// other types they mention are the universe's, so the pair compares as in a
// full load without checking again the packages that import it.
func (su *surfaceUpdate) checkPrivately(keys map[string]bool) bool {
	done := false
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		if su.privateChecks[key] != nil || su.fromSource[key] != nil {
			continue
		}
		c, err := su.compile(key, false)
		if err != nil {
			continue // the full round reports it
		}
		su.privateChecks[key] = c
		done = true
	}
	return done
}

// extract produces the facts of every file the variants in keys claim, and
// returns the named types they declare.
func (su *surfaceUpdate) extract(ex *extraction, keys []string) []*typeDecl {
	var units []unit
	for _, key := range keys {
		c := su.fromSource[key]
		p := &packages.Package{ID: key, PkgPath: c.v.PkgPath, Name: c.v.Name, Types: c.pkg, TypesInfo: c.info, Syntax: c.files, Fset: su.fset}
		for i, f := range c.files {
			rel := c.v.Files[i]
			units = append(units, unit{pkg: p, file: f, rel: rel, test: isTestFile(rel)})
		}
	}
	fields := collectFields(units)
	// The package node goes to the first file of the package by name, whichever
	// variant claims it: homes are chosen among the variants' whole file lists.
	sort.SliceStable(units, func(i, j int) bool { return units[i].rel < units[j].rel })
	pkgFile, pkgDoc := packageHomes(units)
	var decls []*typeDecl
	for _, u := range units {
		if su.snap.Files[u.rel].Variant != u.pkg.ID {
			continue
		}
		c := su.parsed[u.rel].c
		ff := &graph.FileFacts{Path: u.rel, Language: Language, Hash: c.hash, Size: c.size}
		ex.facts[u.rel] = ff
		fx := &fileExtraction{ex: ex, fset: su.fset, u: u, ff: ff, pkgPath: u.pkg.PkgPath, info: u.pkg.TypesInfo, fields: fields}
		if pkgFile[u.pkg.PkgPath] == u.rel {
			fx.packageNode(pkgDoc[u.pkg.PkgPath])
		}
		decls = append(decls, fx.definitions()...)
		fx.uses()
	}
	return decls
}

// snapshot is snap after the update: the re-checked variants with their new
// imports, fingerprints, implements index and fresh export data (written into
// dir), and the edited files' new headers.
func (su *surfaceUpdate) snapshot(order []string, decls []*typeDecl, edited []string, dir string) (*Snapshot, error) {
	out := *su.snap
	out.Variants = maps.Clone(su.variants)
	out.Files = maps.Clone(su.snap.Files)
	exports := map[string]string{}
	byKey := map[string][]TypeRecord{}
	for _, d := range decls {
		byKey[d.view.ID] = append(byKey[d.view.ID], typeRecord(d.obj))
	}
	for _, key := range order {
		c := su.fromSource[key]
		name, err := writeExport(dir, su.fset, c.pkg)
		if err != nil {
			return nil, fullLoad("writing export data of %s: %v", c.v.PkgPath, err)
		}
		exports[key] = name
		v := *su.variants[key]
		v.Export, v.Surface, v.Objects, v.Types = name, surface(c.pkg), objects(c.pkg), byKey[key]
		out.Variants[key] = &v
	}
	for key, v := range out.Variants {
		var imports map[string]Import
		for path, imp := range v.Imports {
			if name, ok := exports[imp.Variant]; ok {
				if imports == nil {
					imports = maps.Clone(v.Imports)
				}
				imp.Export = name
				imports[path] = imp
			}
		}
		if imports != nil {
			nv := *v
			nv.Imports = imports
			out.Variants[key] = &nv
		}
	}
	for _, rel := range edited {
		name := filepath.Join(su.root, filepath.FromSlash(rel))
		if h, b, ok := headerOf(name); ok {
			rec := out.Files[rel]
			rec.Header, rec.Build = h, b
			out.Files[rel] = rec
		}
	}
	return &out, nil
}

// stdSeen lists the packages of the non-synthetic stdInterfaces that variant
// key sees in the graph after the edit (closures.lookup in a full load).
func (su *surfaceUpdate) stdSeen(key string) []string {
	if s, ok := su.stdSeenOf[key]; ok {
		return s
	}
	su.stdSeenOf[key] = nil // cycles were refused by order
	set := map[string]bool{}
	for _, imp := range su.variants[key].Imports {
		var s []string
		if imp.Variant != "" {
			s = su.stdSeen(imp.Variant)
		} else {
			s = imp.Std
		}
		for _, p := range s {
			set[p] = true
		}
	}
	out := slices.Sorted(maps.Keys(set))
	if len(out) == 0 {
		out = nil
	}
	su.stdSeenOf[key] = out
	return out
}
