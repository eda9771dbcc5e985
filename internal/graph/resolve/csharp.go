package resolve

import (
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// csharpLanguage resolves `using A.B;` to the files that declare namespace A.B,
// wherever they lie (C# does not tie namespaces to folders), with A.B as the
// scope their types are named under (`f.cs::A.B::Circle`); a namespace no file
// declares (System, a package's) is external. A file sees, without a using,
// the types of the namespaces it declares and of their parents (Implicit). A
// receiver's type is not read: `c.Area()` is matched by name only.
var csharpLanguage = Language{
	Family:       "csharp",
	Module:       csharpModule,
	Key:          lastDotted,
	Star:         true,
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
	Implicit:     csharpOwnNamespaces,
	StarsOwnOnly: true,
}

// maxNamespaceFiles bounds the files of one namespace the pass reads.
// Judgement: past it, a name is looked up by counting definitions instead.
const maxNamespaceFiles = 4096

func csharpModule(t *Tree, _ string, spec string) Module {
	if t.NamespaceFiles == nil {
		return Module{External: true}
	}
	if files := t.NamespaceFiles(spec); len(files) > 0 {
		return Module{Files: files, Scope: spec}
	}
	return Module{External: true}
}

// csharpOwnNamespaces lists the namespaces file declares and their parents
// (`A.B` and `A` for `namespace A.B`).
func csharpOwnNamespaces(v *view, file string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range v.nodesOf(file) {
		if n.Kind != graph.KindNamespace {
			continue
		}
		for ns := n.Name; ns != ""; {
			if !seen[ns] {
				seen[ns] = true
				out = append(out, ns)
			}
			i := strings.LastIndex(ns, ".")
			if i < 0 {
				break
			}
			ns = ns[:i]
		}
	}
	return out
}

// namespaceFiles lists the C# files that declare namespace ns, once per pass.
func (v *view) namespaceFiles(ns string) []string {
	if files, ok := v.namespaces[ns]; ok {
		return files
	}
	defs, err := v.st.Definitions(v.ctx, ns, []string{"csharp"}, []graph.NodeKind{graph.KindNamespace}, maxNamespaceFiles)
	if err != nil {
		v.fail(err)
	}
	var files []string
	for _, d := range defs {
		if len(files) == 0 || files[len(files)-1] != d.File {
			files = append(files, d.File)
		}
	}
	v.namespaces[ns] = files
	return files
}
