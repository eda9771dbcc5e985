// Package infra reads infrastructure files into the code graph: Dockerfile build
// stages and their base images, Compose services and what they depend on and
// run, Kubernetes objects and the objects and images they name, and Kustomize's
// lists of resources. Each is a definition or a reference in the graph's one
// schema (docs/graph-schema.md, "Infrastructure"), so the graph's questions
// (references, impact, sql) reach them.
package infra

import (
	"context"
	"path"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// ImagePrefix starts the name of a container image an edge points at
// (`image:golang:1.22`): images live outside the repository, so no node has it.
const ImagePrefix = "image:"

// confWritten is the confidence of an edge read as written: the file names its
// target itself (a stage, a service, a path), nothing is guessed.
const confWritten = 1.0

// facts collects one file's facts.
type facts struct {
	ff graph.FileFacts
}

func newFacts(rel, lang string, src []byte) *facts {
	f := &facts{ff: graph.FileFacts{Path: rel, Language: lang, Size: int64(len(src))}}
	lines := strings.Count(string(src), "\n") + 1
	f.ff.Nodes = append(f.ff.Nodes, graph.Node{QName: rel, Kind: graph.KindFile, Name: path.Base(rel), File: rel,
		Line: 1, EndLine: lines, Language: lang})
	return f
}

// define adds a definition contained in parent (the file's path or a node) and
// returns its index in Nodes; the first definition of a name is the node.
func (f *facts) define(parent, qname, name string, kind graph.NodeKind, line, endLine int, sig string) int {
	for i, n := range f.ff.Nodes {
		if n.QName == qname {
			return i
		}
	}
	f.ff.Nodes = append(f.ff.Nodes, graph.Node{QName: qname, Kind: kind, Name: name, File: f.ff.Path,
		Line: line, EndLine: max(line, endLine), Signature: sig, Language: f.ff.Language, Exported: true})
	f.edge(parent, qname, graph.EdgeContains, line)
	return len(f.ff.Nodes) - 1
}

func (f *facts) edge(from, to string, kind graph.EdgeKind, line int) {
	f.ff.Edges = append(f.ff.Edges, graph.Edge{From: from, To: to, Kind: kind, Confidence: confWritten,
		Resolution: graph.ResolvedName, File: f.ff.Path, Line: line})
}

func (f *facts) unresolved(from, name string, kind graph.EdgeKind, line int, reason string) {
	f.ff.Unresolved = append(f.ff.Unresolved, graph.Unresolved{From: from, Name: name, Kind: kind,
		File: f.ff.Path, Line: line, Reason: reason})
}

// Dockerfile reads a Dockerfile: each `FROM` opens a stage, named by `AS name`
// or by its index as Docker numbers them (`0`, `1`…); the stage extends the
// earlier stage it names, or else its base image (`image:golang:1.22`). `COPY
// --from=x` (and ADD, and `RUN --mount=…,from=x`) references stage x, or the
// image x when no stage has that name. A base written with a build argument
// (`FROM ${BASE}`) is left unresolved with its reason.
func Dockerfile(_ context.Context, rel, lang string, src []byte) (graph.FileFacts, error) {
	f := newFacts(rel, lang, src)
	stages := map[string]string{}     // name or index -> qname
	current, index, last := "", 0, -1 // last: the current stage's index in Nodes
	for _, in := range dockerInstructions(string(src)) {
		if last >= 0 && in.cmd != "FROM" {
			f.ff.Nodes[last].EndLine = in.endLine
		}
		switch in.cmd {
		case "FROM":
			args := withoutFlags(in.args)
			if len(args) == 0 {
				continue
			}
			base, name := args[0], strconv.Itoa(index)
			if len(args) >= 3 && strings.EqualFold(args[1], "as") {
				name = args[2]
			}
			q := rel + "::" + name
			last = f.define(rel, q, name, graph.KindStage, in.line, in.line, "FROM "+strings.Join(in.args, " "))
			stages[strconv.Itoa(index)], stages[strings.ToLower(name)] = q, q
			current = q
			index++
			switch {
			case stages[strings.ToLower(base)] != "" && stages[strings.ToLower(base)] != q:
				f.edge(q, stages[strings.ToLower(base)], graph.EdgeExtends, in.line)
			case strings.Contains(base, "$"):
				f.unresolved(q, base, graph.EdgeExtends, in.line, "a build argument: the base is known at build time")
			case strings.EqualFold(base, "scratch"):
			default:
				f.edge(q, ImagePrefix+base, graph.EdgeExtends, in.line)
			}
		case "COPY", "ADD", "RUN":
			from := flagValue(in.args, "from")
			if from == "" || current == "" {
				continue
			}
			if q := stages[strings.ToLower(from)]; q != "" {
				f.edge(current, q, graph.EdgeReferences, in.line)
			} else {
				f.edge(current, ImagePrefix+from, graph.EdgeReferences, in.line)
			}
		}
	}
	return f.ff, nil
}

// instruction is one Dockerfile instruction, its continuation lines joined.
type instruction struct {
	cmd           string
	args          []string
	line, endLine int
}

// dockerInstructions splits a Dockerfile into instructions: `\` at a line's
// end continues it, `#` starts a comment line. A heredoc's body (`<<EOF`) is
// read as lines of its own; they start with no known instruction, or their
// instruction is harmless to read.
func dockerInstructions(src string) []instruction {
	var out []instruction
	var cur *instruction
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, "\r")
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") || (trimmed == "" && cur == nil) {
			continue
		}
		cont := strings.HasSuffix(trimmed, "\\")
		trimmed = strings.TrimSuffix(trimmed, "\\")
		if cur == nil {
			words := strings.Fields(trimmed)
			if len(words) == 0 {
				continue
			}
			cur = &instruction{cmd: strings.ToUpper(words[0]), args: words[1:], line: i + 1, endLine: i + 1}
		} else {
			cur.args = append(cur.args, strings.Fields(trimmed)...)
			cur.endLine = i + 1
		}
		if !cont {
			out = append(out, *cur)
			cur = nil
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

// withoutFlags drops the `--name=value` words.
func withoutFlags(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "--") {
			out = append(out, a)
		}
	}
	return out
}

// flagValue finds `--from=x` or, in `--mount=type=cache,from=x`, the mount's from.
func flagValue(args []string, name string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
		if m, ok := strings.CutPrefix(a, "--mount="); ok {
			for _, kv := range strings.Split(m, ",") {
				if v, ok := strings.CutPrefix(kv, name+"="); ok {
					return v
				}
			}
		}
	}
	return ""
}
