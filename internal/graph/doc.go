// Package graph is the code graph: what a repository defines and how the pieces
// refer to each other (calls, references, imports, implementations, inheritance),
// extracted by parsers, kept in a store and queried exactly. This package holds the
// neutral model every extractor produces and the store saves (model.go: Node, Edge,
// Unresolved, FileFacts); the sub-packages below do the work. The map says which
// package reads which language at which pass, where the facts go, and who reads
// them.
//
// # Passes
//
// internal/graph/index drives every pass (FirstPass, Run, RunInPasses, and Live for a
// long-lived process). It walks the tree (scan.go), names each file's language
// from its name (language.go: LanguageOf), diffs the content hashes against the
// store's manifest, and re-extracts only what changed:
//
//  1. First pass (index.FirstPass, the first index of a tree with Go): Go is
//     read for its definitions only (index/firstgo.go), every other file goes
//     to the file extractors below, and the cross-file pass waits. The store
//     records golang.MetaTypesPending, and every Go answer is a lower bound
//     until the typed pass lands.
//  2. Typed Go pass (index/gorun.go): internal/graph/golang loads the module
//     with go/packages and type-checks it with go/types (golang.Extract), so
//     every Go edge is resolved by types. After an edit in place, golang.Update
//     re-checks only the packages that own the edited files, from export data
//     (update.go); when a package's surface or imports changed, it re-checks
//     the importers that may see the change too (surface_update.go). Anything
//     else (a file added or removed, go.mod, an edit that does not type-check)
//     is golang.FullLoadNeeded, and the module is loaded again.
//  3. File extractors (index/run.go, index/extractors.go), in every run, one
//     file at a time, in parallel: every file but Go in a first pass;
//     afterwards, the changed files the typed pass did not cover.
//  4. Cross-file resolution (internal/graph/resolve, resolve.Update): after the
//     facts are stored, it follows each tree-sitter file's imports to the
//     repository's files and turns the call sites and bases left unresolved
//     into edges, redoing only the files a change can reach.
//
// # Languages
//
// Go is read in four places, one per pass:
//
//   - internal/graph/index, firstgo.go and firstgo_defs.go (first pass):
//     go/parser, no type checker, no function body walked; the definitions
//     under the type checker's names, kinds and places, with their contains
//     edges and imports. Calls, references and type relations wait for the
//     typed pass.
//   - internal/graph/golang (typed pass): definitions, calls, references,
//     implements and embedding edges, all resolution "types", named
//     `<import path>.<Name>` and `<import path>.<Type>.<Method>`.
//   - internal/graph/treesitter, spec_go.go and gotypes.go: Go read without the
//     type checker: the Go the type checker does not cover (a module that does
//     not load, files left out by build constraints, files that use cgo), and,
//     in the first pass, Go outside any module. golang.FallbackNames
//     wraps this extractor so that its Go facts carry the type checker's names.
//   - internal/graph/resolve, golang.go, gotypes.go, gonames.go and
//     goimplements.go: the cross-file pass for that tree-sitter Go (import paths
//     under go.mod's module, a receiver's declared type, implements by method
//     names), skipping the files the type checker wrote (resolve.File.Typed).
//
// TypeScript, TSX, JavaScript, Python, Java, Kotlin, Swift, C, C++, Objective-C,
// C#, Rust, Ruby and PHP: extracted by internal/graph/treesitter (a Spec table per
// language, spec_*.go, read by one shared walker), resolved across files by
// internal/graph/resolve (a Language per family: python.go, javascript.go,
// java.go, kotlin.go, swift.go, clang.go and objc.go, csharp.go, rust.go,
// ruby.go, php.go). No tree-sitter language stays within its file. The Kotlin,
// Swift and Objective-C grammars are vendored in treesitter/grammar.
//
// Dockerfiles and YAML (Compose, Kubernetes, Kustomize): internal/graph/infra.
// Markdown and shell scripts: internal/graph/textref. Both are the index's builtin
// extractors (index/extractors.go), run in every pass; their edges name their
// targets directly (a repository path, a Kubernetes object's kind and name, `image:<ref>`), so
// the cross-file pass has nothing to do for them.
//
// # Where the facts go, and who reads them
//
// Every extractor returns one FileFacts per file; internal/graph/index writes them
// into internal/graph/store (SQLite, WAL, with a full-text index), replacing a
// file's facts as a whole, and the resolution pass writes its edges there too.
// Readers:
//
//   - internal/graph/query answers the structure questions (definition, callers,
//     callees, references, implementations, search, impact) and says whether
//     each answer is exact or a lower bound, with internal/graph/community's
//     partition of the graph into communities; internal/graph/compact reshapes
//     its answers for agents that count tokens.
//   - internal/graph/changes maps a git diff onto definitions and their risk;
//     internal/graph/cochange reads git history; internal/graph/embed is the
//     vector leg of search; internal/graph/artifact packs an index into one
//     shareable file.
//   - Faces: internal/graph/agenttool (the agent's code_graph tool, also served by
//     serve's MCP server), internal/graph/mcpserver (`albert-code graph mcp`),
//     internal/graph/webmap (the browser map), and the `albert-code graph`
//     commands wired in internal/app.
package graph
