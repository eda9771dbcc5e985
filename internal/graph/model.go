package graph

// This file holds the neutral model every extractor produces and the store saves. One
// node kind column and one edge kind column, not a table per pair of kinds: a reader
// of the SQL schema needs to learn two tables, not a hundred.

// NodeKind says what a definition is.
type NodeKind string

const (
	KindFile      NodeKind = "file"
	KindPackage   NodeKind = "package" // a Go package, a Python module, a Java package
	KindNamespace NodeKind = "namespace"
	KindFunction  NodeKind = "function"
	KindMethod    NodeKind = "method"
	KindClass     NodeKind = "class"
	KindStruct    NodeKind = "struct"
	KindInterface NodeKind = "interface" // also traits and protocols
	KindEnum      NodeKind = "enum"
	KindVariant   NodeKind = "variant"
	KindTypeAlias NodeKind = "type_alias"
	KindType      NodeKind = "type" // a named type that is none of the above (Go `type X int`)
	KindField     NodeKind = "field"
	KindConstant  NodeKind = "constant"
	KindVariable  NodeKind = "variable"
	// Infrastructure (internal/graph/infra).
	KindStage    NodeKind = "stage"    // a Dockerfile build stage
	KindService  NodeKind = "service"  // a Compose service
	KindResource NodeKind = "resource" // a Kubernetes object, Kind/name
	// Text (internal/graph/textref).
	KindSection NodeKind = "section" // a Markdown heading, named by its anchor
)

// Node is one definition. QName is its identity across re-indexing: it never
// contains a per-file sequence number or a line, so an edit elsewhere in a file does
// not rename it. For Go it is `<import path>.<Name>` and `<import path>.<Type>.<Method>`
// (fields `<import path>.<Type>.<Field>`); for other languages
// `<repo-relative path>::<scope>::<name>`; a file's node is its repo-relative path.
type Node struct {
	QName string   `json:"qualified_name"`
	Kind  NodeKind `json:"kind"`
	Name  string   `json:"name"`
	// File is relative to the repository root, with forward slashes.
	File string `json:"file"`
	// Line and Col locate the name (1-based); EndLine ends the definition's body.
	Line      int    `json:"line"`
	Col       int    `json:"col,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Signature string `json:"signature,omitempty"`
	Doc       string `json:"doc,omitempty"`
	Language  string `json:"language"`
	Exported  bool   `json:"exported,omitempty"`
}

// EdgeKind says how two nodes relate.
type EdgeKind string

const (
	EdgeContains   EdgeKind = "contains"   // package or file → definition; type → method or field
	EdgeCalls      EdgeKind = "calls"      // function or method → function or method
	EdgeReferences EdgeKind = "references" // any use of a definition other than a call
	EdgeImports    EdgeKind = "imports"    // file → package or file
	EdgeImplements EdgeKind = "implements" // type → interface
	EdgeExtends    EdgeKind = "extends"    // class → class, interface → interface (embedding too)
)

// Resolution says how an edge's target was found, from most to least certain.
type Resolution string

const (
	// ResolvedTypes: the compiler's type checker named the target (exact).
	ResolvedTypes Resolution = "types"
	// ResolvedImport: the name was followed through the file's imports.
	ResolvedImport Resolution = "import"
	// ResolvedName: the target was matched by name alone (a guess, with a confidence).
	ResolvedName Resolution = "name"
)

// Edge relates two nodes by their qualified names. File and Line locate the site
// (the call, the reference) when there is one.
type Edge struct {
	From       string     `json:"from"`
	To         string     `json:"to"`
	Kind       EdgeKind   `json:"kind"`
	Confidence float64    `json:"confidence"`
	Resolution Resolution `json:"resolution"`
	File       string     `json:"file,omitempty"`
	Line       int        `json:"line,omitempty"`
}

// Unresolved is a call or reference whose target no strategy could name. It is kept
// and counted, so answers can say they are a lower bound and why.
type Unresolved struct {
	From   string   `json:"from"`
	Name   string   `json:"name"`
	Kind   EdgeKind `json:"kind"`
	File   string   `json:"file"`
	Line   int      `json:"line"`
	Col    int      `json:"col,omitempty"`
	Reason string   `json:"reason,omitempty"`
}

// FileFacts is everything extracted from one file: the unit the indexer replaces when
// the file changes. Edges and unresolved sites belong to the file they occur in.
type FileFacts struct {
	Path     string `json:"path"`
	Language string `json:"language"`
	// Hash is the content hash the incremental indexer compares (hex SHA-256).
	Hash       string       `json:"hash"`
	Size       int64        `json:"size"`
	Nodes      []Node       `json:"nodes"`
	Edges      []Edge       `json:"edges"`
	Unresolved []Unresolved `json:"unresolved"`
	// ParseError, when set, says why the file's facts are partial (syntax errors) or
	// absent (quarantined: the parser panicked or ran out of time).
	ParseError  string `json:"parse_error,omitempty"`
	Quarantined bool   `json:"quarantined,omitempty"`
}
