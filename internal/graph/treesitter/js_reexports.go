package treesitter

import sitter "github.com/tree-sitter/go-tree-sitter"

// jsReexport reads an export statement that names a source module as an import of
// what it passes on, so the cross-file pass follows a name through a barrel file
// (`index.ts`) as through any import. Targets, as imports.go writes them:
//
//	module::*               export * from "./core"
//	module as alias         export * as util from "./util"
//	module::name            export { load } from "./util"
//	module::name as alias   export { load as read } from "./util"
//
// An export without a source (`export const x`, `export { x }`) imports nothing:
// the walker reads it on as a definition.
func jsReexport(n *sitter.Node, src []byte) []string {
	module := unquote(fieldText(n, "source", src))
	if module == "" {
		return nil
	}
	var out []string
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "namespace_export":
			if c.NamedChildCount() > 0 {
				out = append(out, ImportTarget(module, "", unquote(text(c.NamedChild(0), src))))
			}
		case "export_clause":
			for j := uint(0); j < c.NamedChildCount(); j++ {
				if s := c.NamedChild(j); s.Kind() == "export_specifier" {
					out = append(out, ImportTarget(module, unquote(fieldText(s, "name", src)), unquote(fieldText(s, "alias", src))))
				}
			}
		}
	}
	if len(out) == 0 { // `export * from "./core"`
		out = append(out, ImportTarget(module, "*", ""))
	}
	return out
}
