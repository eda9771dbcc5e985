// Package shellcmd classifies a bash command line before it runs: it parses the line,
// checks every simple command in it against allow and deny prefix rules, and fails
// closed, to ask, on whatever it cannot vouch for (redirections into files,
// substitutions, eval, variables that change what programs do).
package shellcmd

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/etalab-ia/albert-code/internal/permission"
)

// Classify decides for the bash command line cmd: Never when a simple command in it is
// denied, Always when every one is allowed and nothing else in the line needs a
// person's eye, Ask otherwise. The reason names the command and the rule or construct.
func Classify(cmd string, rules Rules) permission.Verdict {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return permission.Verdict{Level: permission.Ask, Reason: "the command could not be parsed: " + err.Error()}
	}
	c := &classifier{
		allow:      compile(rules.Allow),
		deny:       compile(rules.Deny),
		standalone: rules.DenyStandalone,
		piped:      map[*syntax.Stmt]bool{},
		asked:      map[string]bool{},
	}
	syntax.Walk(f, c.visit)
	return c.verdict()
}

// ClassifyCall classifies a call of the bash tool from its JSON arguments,
// {"command": "..."}. It has no opinion when they hold no command: the tool refuses
// those itself.
func (r Rules) ClassifyCall(args json.RawMessage) (permission.Verdict, bool) {
	var p struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(args, &p) != nil || strings.TrimSpace(p.Command) == "" {
		return permission.Verdict{}, false
	}
	return Classify(p.Command, r), true
}

type classifier struct {
	allow, deny prefixes
	standalone  []string
	// piped holds the statements whose standard input is a pipe.
	piped map[*syntax.Stmt]bool

	commands int
	never    string
	asks     []string
	// asked holds the reasons in asks, so that a long line's many reasons are
	// each added in constant time.
	asked map[string]bool
}

func (c *classifier) ask(format string, args ...any) {
	if r := fmt.Sprintf(format, args...); !c.asked[r] {
		c.asked[r] = true
		c.asks = append(c.asks, r)
	}
}

func (c *classifier) refuse(reason string) {
	if c.never == "" {
		c.never = reason
	}
}

// maxReasons bounds an ask reason to what a person reads in an approval prompt.
const maxReasons = 3

func (c *classifier) verdict() permission.Verdict {
	switch {
	case c.never != "":
		return permission.Verdict{Level: permission.Never, Reason: c.never}
	case len(c.asks) > maxReasons:
		r := strings.Join(c.asks[:maxReasons], "; ")
		return permission.Verdict{Level: permission.Ask, Reason: fmt.Sprintf("%s; and %d more", r, len(c.asks)-maxReasons)}
	case len(c.asks) > 0:
		return permission.Verdict{Level: permission.Ask, Reason: strings.Join(c.asks, "; ")}
	case c.commands == 0:
		return permission.Verdict{Level: permission.Ask, Reason: "the line holds no command"}
	}
	return permission.Verdict{Level: permission.Always, Reason: "every command is allowlisted"}
}

// visit is called for every node of the syntax tree, command substitutions and
// function bodies included, so no simple command escapes the rules.
func (c *classifier) visit(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Stmt:
		c.stmt(n)
	case *syntax.BinaryCmd:
		if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
			c.piped[n.Y] = true
		}
	case *syntax.Redirect:
		c.redirect(n)
	case *syntax.CmdSubst:
		c.ask("command substitution %s", source(n))
	case *syntax.ProcSubst:
		c.ask("process substitution %s", source(n))
	case *syntax.ParamExp:
		c.paramExp(n)
	case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.CStyleLoop:
		// Arithmetic evaluates variables recursively, and x='a[$(cmd)]' runs cmd.
		c.ask("the arithmetic %s may run code held in a variable", shorten(source(n)))
	case *syntax.BinaryTest:
		if n.Op >= syntax.TsEql && n.Op <= syntax.TsGtr {
			c.ask("the arithmetic test %s in [[ ]] may run code held in a variable", n.Op)
		}
	case *syntax.UnaryTest:
		if w, ok := n.X.(*syntax.Word); ok && (n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar) && !isPlainName(wordOf(w)) {
			c.ask("[[ %s %s ]]: bash evaluates the array subscript in the variable name, which may run code", n.Op, source(w))
		}
	case *syntax.Assign:
		c.assign(n.Name, n.Index != nil || arrayIndexed(n.Array))
	case *syntax.WordIter:
		c.assign(n.Name, false)
	case *syntax.DeclClause:
		c.ask("%s changes variables and their attributes", n.Variant.Value)
	}
	return true
}

// paramExp checks an expansion that evaluates more than a variable's value.
func (c *classifier) paramExp(n *syntax.ParamExp) {
	switch {
	case n.Exp != nil && n.Exp.Op == syntax.OtherParamOps:
		// ${x@P} expands x as a prompt, running the substitutions in its value.
		c.ask("the expansion %s may run code held in a variable", source(n))
	case n.Index != nil || n.Slice != nil:
		c.ask("the expansion %s evaluates an array subscript or offset as arithmetic, which may run code held in a variable", source(n))
	case n.Excl && n.Names == 0:
		c.ask("the indirect expansion %s evaluates the array subscript in the name the variable holds, which may run code", source(n))
	}
}

// arrayIndexed reports whether an array assignment names indexes, a=([i]=x), which
// bash evaluates as arithmetic.
func arrayIndexed(a *syntax.ArrayExpr) bool {
	return a != nil && slices.ContainsFunc(a.Elems, func(e *syntax.ArrayElem) bool { return e.Index != nil })
}

// safeVars are upper-case variables that change only how programs format output.
var safeVars = []string{"LANG", "LANGUAGE", "TZ", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "COLUMNS", "LINES", "TERM", "CI"}

// assign checks a variable the line sets. Environment variables are upper case by
// convention, and many of them make a program load or run something (PATH,
// LD_PRELOAD, GIT_EXTERNAL_DIFF, GOFLAGS, BASH_ENV, RIPGREP_CONFIG_PATH...), so an
// upper-case name asks unless it is known to be harmless.
func (c *classifier) assign(name *syntax.Lit, indexed bool) {
	if name == nil {
		return
	}
	if indexed {
		c.ask("the array index in the assignment to %s is arithmetic, which may run code", name.Value)
		return
	}
	v := name.Value
	if strings.ToLower(v) != v && strings.ToUpper(v) == v && !slices.Contains(safeVars, v) && !strings.HasPrefix(v, "LC_") {
		c.ask("setting %s may change what programs load or run", v)
	}
}

func (c *classifier) stmt(s *syntax.Stmt) {
	switch cmd := s.Cmd.(type) {
	case nil, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause,
		*syntax.Block, *syntax.Subshell, *syntax.BinaryCmd, *syntax.FuncDecl, *syntax.TimeClause,
		*syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause, *syntax.DeclClause:
		// Their parts are visited on their own.
	case *syntax.CallExpr:
		c.commands++
		if len(cmd.Args) > 0 {
			c.call(s, words(cmd.Args))
		}
	default:
		c.ask("the construct %s is not understood", source(cmd))
	}
}

// call checks one simple command: its name and arguments.
func (c *classifier) call(s *syntax.Stmt, ws []word) {
	name := ws[0]
	if !name.lit {
		c.ask("the command name %s is only known at run time", name.text)
		return
	}
	if reason := c.denied(ws); reason != "" {
		c.refuse(reason)
		return
	}
	prog := path.Base(name.text)
	if len(ws) == 1 && slices.Contains(c.standalone, prog) && !c.piped[s] && !readsInput(s) {
		c.refuse(fmt.Sprintf("%s without a script or command would wait for a terminal; it is denied when run alone", display(ws)))
		return
	}
	if reason := evaluatedWords(ws); reason != "" {
		c.ask("%s", reason)
		return
	}
	switch name.text {
	case "eval", "exec", "source", ".", "trap":
		c.ask("%s runs text or a file as commands", display(ws))
		return
	}
	if strings.Contains(name.text, "/") {
		c.ask("%s names a program by path, which the allowlist does not cover", display(ws))
		return
	}
	if name.text == "git" {
		// git's harmless global options (--no-pager) do not hide the subcommand
		// from the allow rules; the others ask, whatever the rules.
		sub, reason := gitGlobals(ws[1:])
		if reason != "" {
			c.ask("%s", reason)
			return
		}
		ws = append([]word{name}, sub...)
	}
	if _, ok := c.allow.match(ws); !ok {
		c.ask("%s is not in the allowlist", display(ws))
		return
	}
	if reason := guard(name.text, ws[1:]); reason != "" {
		c.ask("%s", reason)
	}
}

// denied returns why a simple command, or the command a wrapper runs, is refused.
func (c *classifier) denied(ws []word) string {
	// Four levels: nohup nice timeout env cmd is already far-fetched.
	for range 4 {
		if len(ws) == 0 || !ws[0].lit {
			return ""
		}
		prog := path.Base(ws[0].text)
		key := append([]word{{text: prog, lit: true}}, ws[1:]...)
		if rule, ok := c.deny.match(key); ok {
			return fmt.Sprintf("%s is denied by the rule %q", display(ws), rule)
		}
		args := make([]string, len(ws)-1)
		for i, w := range ws[1:] {
			args[i] = w.text
		}
		if r := refusal(prog, args); r != "" {
			return fmt.Sprintf("%s is denied: %s", display(ws), r)
		}
		ws = unwrap(ws)
	}
	return ""
}

// readsInput reports whether s takes its standard input from a file or here-document.
func readsInput(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			if r.N == nil || r.N.Value == "0" {
				return true
			}
		}
	}
	return false
}

// harmlessSinks are the files output may be redirected to without asking.
var harmlessSinks = []string{"/dev/null", "/dev/stdout", "/dev/stderr"}

// redirect checks a redirection: reading is fine, duplicating a descriptor is fine,
// writing to a file other than /dev/null asks (upstream issue #558: an allowlisted
// echo could write any file).
func (c *classifier) redirect(r *syntax.Redirect) {
	target, lit := literal(r.Word)
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return
	case syntax.DplIn, syntax.DplOut:
		// >&2 and 2>&1 duplicate descriptors; >&file (no digits) writes to file.
		if lit && (target == "-" || strings.Trim(target, "0123456789") == "") {
			return
		}
	default:
		if lit && slices.Contains(harmlessSinks, target) {
			return
		}
	}
	n := ""
	if r.N != nil {
		n = r.N.Value
	}
	c.ask("the redirection %s%s%s writes to a file", n, r.Op, source(r.Word))
}
