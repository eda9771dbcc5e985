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
//
// C# (csharpUsing): module is the namespace or type as written, generic arguments
// kept without spaces; syntax cannot tell a namespace from a type.
//
//	module                  using System.Text; · global using System.Linq;
//	module as alias         using SB = System.Text.StringBuilder;
//	module::*               using static System.Math;   (the type's static members)
//
// Ruby (rubyRequire): module is the path string as written; require_relative paths
// are relative to the requiring file and always start with "." ("./x", "../x").
//
//	module                  require 'json' · load 'x.rb' · require_relative 'lib/x' (./lib/x)
//	module::name            autoload :Foo, 'foo/bar'    (foo/bar::Foo)
//
// PHP (phpUse, phpInclude): module is the namespace without its leading `\`, empty
// for the global namespace; a use of a function or constant is written like a
// class's. Included files are paths as written, or "./..." relative to the
// including file when written `__DIR__ . '/...'` or `dirname(__FILE__) . '/...'`.
//
//	module::name            use A\B\C; (A\B::C) · use C; (::C) · use function A\f; (A::f)
//	module::name as alias   use A\B\C as D; · use A\{B as D};
//	module                  require_once 'lib/x.php' · include __DIR__ . '/x.php' (./x.php)
//
// Rust (rustUse): a path is split before its last segment; module keeps `crate`,
// `self`, `super` as written, a one-segment path is a module, and a `self` in a
// use list names the path before it.
//
//	module                  use serde; · extern crate serde;
//	module as alias         extern crate serde as sd;
//	module::name            use crate::net::Client; (crate::net::Client) · use std::{io, fmt::Write};
//	module::name as alias   use a::b as c; · use self::inner::{self as inn}; (self::inner as inn)
//	module::*               use super::*;
//
// Java (javaImport): module is the package as written (for a static import, the
// class), name the class (the static member).
//
//	module::name            import java.util.List; (java.util::List) · import static java.lang.Math.max; (java.lang.Math::max)
//	module::*               import java.util.*; · import static org.junit.Assert.*;
//
// C and C++ (cInclude): module is the include path with its delimiters, so a
// local "x.h" (looked up from the including file's directory first) differs from a
// system <x.h>. C++ (cppUsing) names namespaces like Rust paths:
//
//	module                  #include "util.h" ("util.h") · #include <stdio.h> (<stdio.h>)
//	module::name            using std::vector; (std::vector)
//	module::name as alias   namespace fs = std::filesystem; (std::filesystem as fs)
//	module::*               using namespace std; (std::*)
//
// A Rust or C++ module holds `::` itself; a name never does, so the last `::`
// separates them.

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
	module = to
	if i := strings.LastIndex(to, "::"); i >= 0 {
		module, name = to[:i], to[i+len("::"):]
	}
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
