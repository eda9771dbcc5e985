package textref

import (
	"context"
	"path"
	"regexp"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Confidences of the shell's edges. Judgement: the shell looks a relative
// `source` path up from the working directory, not the script's folder, so a
// path taken from the script's folder is a likely guess; a call of a function
// the script defines is the shell's own rule (a function shadows a command).
const (
	confSourceGuess = 0.8
	confShellCall   = 0.9
)

var (
	// shellFunc matches `name() {`, `function name {` and `function name() {`.
	shellFunc = regexp.MustCompile(`^\s*(?:function\s+([A-Za-z_][\w:.-]*)\s*(?:\(\s*\))?|([A-Za-z_][\w:.-]*)\s*\(\s*\))\s*\{?`)
	// shellHeredoc matches the start of a heredoc and captures its terminator.
	shellHeredoc = regexp.MustCompile(`<<-?\s*['"]?([A-Za-z_][\w]*)['"]?`)
	// scriptDir matches the idioms that name the script's own folder.
	scriptDir = regexp.MustCompile(`^(?:\$\(\s*dirname\s+"?\$(?:\{?0\}?|\{?BASH_SOURCE(?:\[0\])?\}?)"?\s*\)|\$\{BASH_SOURCE(?:\[0\])?%/\*\}|\$\{0%/\*\}|\$\{?[A-Z_]*DIR\}?|\$\{?HERE\}?)/`)
)

// Shell reads a shell script: `source f` and `. f` are imports of the file f,
// taken from the script's folder (a path built from it, `$(dirname "$0")/f` or
// `$SCRIPT_DIR/f`, too); a path computed otherwise stays unresolved with its
// reason. Functions (`f() {`, `function f {`) are definitions, and a command
// that names one of them is a call, from the function it is written in or from
// the script. It is read line by line, heredoc bodies and comments skipped: a
// command inside a string is not seen.
func Shell(ctx context.Context, rel, lang string, src []byte) (graph.FileFacts, error) {
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	ff := graph.FileFacts{Path: rel, Language: lang, Size: int64(len(src))}
	ff.Nodes = append(ff.Nodes, graph.Node{QName: rel, Kind: graph.KindFile, Name: path.Base(rel), File: rel,
		Line: 1, EndLine: len(lines), Language: lang})
	code := codeLines(lines)
	type fn struct {
		name       string
		start, end int // 1-based lines
		nodeIndex  int
		qname      string
	}
	var funcs []fn
	byName := map[string]string{}
	for i, line := range code {
		m := shellFunc.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name := m[1] + m[2]
		q := rel + "::" + name
		if byName[name] != "" {
			continue
		}
		byName[name] = q
		funcs = append(funcs, fn{name: name, start: i + 1, end: functionEnd(code, i), nodeIndex: len(ff.Nodes), qname: q})
		ff.Nodes = append(ff.Nodes, graph.Node{QName: q, Kind: graph.KindFunction, Name: name, File: rel,
			Line: i + 1, EndLine: funcs[len(funcs)-1].end, Signature: strings.TrimSpace(line), Language: lang, Exported: true})
		ff.Edges = append(ff.Edges, graph.Edge{From: rel, To: q, Kind: graph.EdgeContains, Confidence: 1,
			Resolution: graph.ResolvedName, File: rel, Line: i + 1})
	}
	enclosing := func(line int) string {
		from := rel
		for _, f := range funcs { // innermost: the last that contains the line
			if f.start < line && line <= f.end {
				from = f.qname
			}
		}
		return from
	}
	for i, line := range code {
		if err := ctx.Err(); err != nil {
			return graph.FileFacts{}, err
		}
		from := enclosing(i + 1)
		for _, loc := range sourceCommand.FindAllStringIndex(line, -1) {
			sourced(&ff, from, shellWord(line[loc[1]:]), i+1)
		}
		if shellFunc.MatchString(line) {
			continue
		}
		for _, words := range commands(line) {
			if q := byName[words[0]]; q != "" {
				ff.Edges = append(ff.Edges, graph.Edge{From: from, To: q, Kind: graph.EdgeCalls,
					Confidence: confShellCall, Resolution: graph.ResolvedName, File: rel, Line: i + 1})
			}
		}
	}
	return ff, nil
}

// sourced adds the import of a sourced file.
func sourced(ff *graph.FileFacts, from, written string, line int) {
	conf := confSourceGuess
	if loc := scriptDir.FindStringIndex(written); loc != nil {
		written, conf = "./"+written[loc[1]:], 1.0 // from the script's folder, as written
	}
	if written == "" || strings.ContainsAny(written, "$`*?") {
		ff.Unresolved = append(ff.Unresolved, graph.Unresolved{From: from, Name: written, Kind: graph.EdgeImports,
			File: ff.Path, Line: line, Reason: "a path computed at run time"})
		return
	}
	to, ok := Resolve(ff.Path, written)
	if !ok {
		ff.Unresolved = append(ff.Unresolved, graph.Unresolved{From: from, Name: written, Kind: graph.EdgeImports,
			File: ff.Path, Line: line, Reason: "a path outside the repository"})
		return
	}
	ff.Edges = append(ff.Edges, graph.Edge{From: ff.Path, To: to, Kind: graph.EdgeImports, Confidence: conf,
		Resolution: graph.ResolvedImport, File: ff.Path, Line: line})
}

// codeLines blanks what is not code: comments, and heredoc bodies.
func codeLines(lines []string) []string {
	out := make([]string, len(lines))
	end := ""
	for i, line := range lines {
		if end != "" {
			if strings.TrimSpace(line) == end {
				end = ""
			}
			continue
		}
		line = stripComment(line)
		if m := shellHeredoc.FindStringSubmatch(line); m != nil {
			end = m[1]
		}
		out[i] = line
	}
	return out
}

// stripComment cuts a line at a `#` that starts a word outside quotes.
func stripComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t' || line[i-1] == ';'):
			return line[:i]
		}
	}
	return line
}

// commandSeparators end one command and start the next.
var commandSeparators = regexp.MustCompile(`;|&&|\|\||\||&|\$\(|\(|\)|\{|\}|\bthen\b|\bdo\b|\belse\b|\belif\b|\bif\b|\bwhile\b|\buntil\b|!`)

// commands splits a line into its commands' words.
func commands(line string) [][]string {
	var out [][]string
	for _, part := range commandSeparators.Split(line, -1) {
		words := strings.Fields(part)
		// Assignments before a command (`FOO=1 cmd`) are not the command.
		for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "=") {
			words = words[1:]
		}
		if len(words) > 0 {
			out = append(out, words)
		}
	}
	return out
}

// functionEnd is the line (1-based) of the `}` that closes the function opened
// on line start (0-based), counting braces; the last line when none does.
func functionEnd(code []string, start int) int {
	depth, opened := 0, false
	for i := start; i < len(code); i++ {
		for _, c := range code[i] {
			switch c {
			case '{':
				depth++
				opened = true
			case '}':
				depth--
			}
		}
		if opened && depth <= 0 {
			return i + 1
		}
	}
	return len(code)
}

// sourceCommand matches `source ` or `. ` where a command starts.
var sourceCommand = regexp.MustCompile(`(?:^|[;&|{]|\bthen\b|\bdo\b|\belse\b)\s*(?:source|\.)\s+`)

// shellWord reads the first shell word of s, quotes and `$(…)` included, and
// returns it without its quotes.
func shellWord(s string) string {
	var b strings.Builder
	var quote byte
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
			continue
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
			continue
		case quote == 0 && depth == 0 && strings.IndexByte(" \t;&|)", c) >= 0:
			return b.String()
		case c == '(' && i > 0 && s[i-1] == '$':
			depth++
		case c == ')' && depth > 0:
			depth--
		}
		b.WriteByte(c)
	}
	return b.String()
}
