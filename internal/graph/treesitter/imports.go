package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// An imports edge's To is an import target, written as the source spells it so a
// later cross-file pass can resolve it:
//
//	module                  import os.path · import "./x" · import "fmt"
//	module as alias         import numpy as np · import * as ns from "./x" · import f "fmt"
//	module::name            from .util import load · import { load } from "./util"
//	module::name as alias   from .util import load as l · import { load as l } from "./util"
//	module::default as x    import x from "./util"
//	module::*               from os import *
//
// module is the written module name (relative Python modules keep their dots, JS
// specifiers their "./"); name is the imported symbol; alias the local name.

// ImportTarget builds an imports edge's To from its parts; name and alias may be empty.
func ImportTarget(module, name, alias string) string {
	s := module
	if name != "" {
		s += "::" + name
	}
	if alias != "" {
		s += " as " + alias
	}
	return s
}

// SplitImportTarget parses an imports edge's To written by ImportTarget.
func SplitImportTarget(to string) (module, name, alias string) {
	if i := strings.LastIndex(to, " as "); i >= 0 {
		to, alias = to[:i], to[i+len(" as "):]
	}
	module, name, _ = strings.Cut(to, "::")
	return module, name, alias
}

func unquote(s string) string { return strings.Trim(s, "\"'`") }

func pythonImport(n *sitter.Node, src []byte) []string {
	var out []string
	c := n.Walk()
	defer c.Close()
	for _, ch := range n.ChildrenByFieldName("name", c) {
		switch ch.Kind() {
		case "dotted_name":
			out = append(out, ImportTarget(text(&ch, src), "", ""))
		case "aliased_import":
			out = append(out, ImportTarget(fieldText(&ch, "name", src), "", fieldText(&ch, "alias", src)))
		}
	}
	return out
}

func pythonImportFrom(n *sitter.Node, src []byte) []string {
	module := fieldText(n, "module_name", src)
	var out []string
	c := n.Walk()
	defer c.Close()
	for _, ch := range n.ChildrenByFieldName("name", c) {
		switch ch.Kind() {
		case "dotted_name":
			out = append(out, ImportTarget(module, text(&ch, src), ""))
		case "aliased_import":
			out = append(out, ImportTarget(module, fieldText(&ch, "name", src), fieldText(&ch, "alias", src)))
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if n.NamedChild(i).Kind() == "wildcard_import" {
			out = append(out, ImportTarget(module, "*", ""))
		}
	}
	if len(out) == 0 && module != "" {
		out = append(out, ImportTarget(module, "", ""))
	}
	return out
}

func jsImport(n *sitter.Node, src []byte) []string {
	module := unquote(fieldText(n, "source", src))
	if module == "" {
		return nil
	}
	var out []string
	for i := uint(0); i < n.NamedChildCount(); i++ {
		clause := n.NamedChild(i)
		if clause.Kind() != "import_clause" {
			continue
		}
		for j := uint(0); j < clause.NamedChildCount(); j++ {
			b := clause.NamedChild(j)
			switch b.Kind() {
			case "identifier":
				out = append(out, ImportTarget(module, "default", text(b, src)))
			case "namespace_import":
				if b.NamedChildCount() > 0 {
					out = append(out, ImportTarget(module, "", text(b.NamedChild(0), src)))
				}
			case "named_imports":
				for k := uint(0); k < b.NamedChildCount(); k++ {
					spec := b.NamedChild(k)
					if spec.Kind() == "import_specifier" {
						out = append(out, ImportTarget(module, unquote(fieldText(spec, "name", src)), fieldText(spec, "alias", src)))
					}
				}
			}
		}
	}
	if len(out) == 0 {
		out = append(out, ImportTarget(module, "", ""))
	}
	return out
}

func goImport(n *sitter.Node, src []byte) []string {
	path := unquote(fieldText(n, "path", src))
	if path == "" {
		return nil
	}
	return []string{ImportTarget(path, "", fieldText(n, "name", src))}
}
