package resolve

import (
	"path"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// objcLanguage resolves Objective-C as C: `#import "Foo.h"` (and #include) from
// the importing file's folder then the include folders, bringing every name the
// header declares; `#import <…>` and `@import` are external. It shares C's
// family, so a C function is found from Objective-C and back. A class or a
// method found in a header (its @interface) is followed to its definition in
// an @implementation outside headers when exactly one exists (fromHeader).
var objcLanguage = Language{
	Family:    "c",
	Module:    cModule,
	Key:       cLanguage.Key,
	Star:      true,
	SelfNames: []string{"self"},
	Headers:   cLanguage.Headers,
	// `Foo *f = …; [f m]` in Foo's own file is the site Foo.m.
	OwnNames: true,
}

// objcInterfaces reads the languages' table (through scopeOf): it is set
// once the table exists.
func init() { objcLanguage.SameClass = objcInterfaces }

// objcInterfaces lists the @interface of class c (an @implementation) in the
// headers c's file imports: the properties, superclass and protocols the
// header declares are the class's.
func objcInterfaces(v *view, c string, d *deps) []string {
	file := fileOf(c)
	name, ok := strings.CutPrefix(c, file+"::")
	if !ok || strings.Contains(name, "::") {
		return nil
	}
	var out []string
	for _, star := range v.scopeOf(file).stars {
		d.module(star.key)
		for _, h := range star.mod.Files {
			d.file(h)
			if n, ok := v.node(h + "::" + name); ok && h != file && isTypeKind(n.Kind) {
				out = append(out, n.QName)
			}
		}
	}
	return out
}

// implementsHeader reports whether the definition at qname, outside headers,
// is the one scope::name the header's declaration names: same class, same
// selector.
func implementsHeader(qname, scopedName string, headers []string) bool {
	f := fileOf(qname)
	if f == "" || len(qname) <= len(f)+2 {
		return false
	}
	for _, h := range headers {
		if path.Ext(f) == h {
			return false
		}
	}
	return qname[len(f)+2:] == scopedName
}

// methodFromHeader follows a method declared in a header to its definition:
// the one method outside headers whose class and selector are the header's
// (`Foo.h::Foo::run:` to `Foo.m::Foo::run:`).
func (v *view) methodFromHeader(n graph.Node, lang *Language, d *deps) graph.Node {
	scoped, ok := strings.CutPrefix(n.QName, n.File+"::")
	if !ok {
		return n
	}
	r := v.count(n.Name, lang.Family, methods)
	d.name(n.Name, filter(lang.Family, methods), r.n)
	defs, err := v.st.Definitions(v.ctx, n.Name, family(lang.Family), methods.kinds, maxDefinitions)
	if err != nil {
		v.fail(err)
		return n
	}
	var out []graph.Node
	for _, x := range defs {
		if implementsHeader(x.QName, scoped, lang.Headers) {
			out = append(out, x)
		}
	}
	if len(out) != 1 {
		return n
	}
	d.file(out[0].File)
	return out[0]
}
