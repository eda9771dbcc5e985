package shellcmd

import (
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/etalab-ia/albert-code/internal/permission"
)

// FuzzClassify checks that Classify returns quickly, the same verdict twice, and
// never Always for a line that does one of the things the classifier exists to catch,
// judged by a walk of the syntax tree written apart from the classifier's.
// Seeds: testdata/fuzz/FuzzClassify and the lines below.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{
		"ls -la", "git status --short", "grep -rn foo .", "test -f go.mod && echo yes",
		"test -v 'a[$(id)]'", "[ -v 'a[$(id)]' ]", "file --comp", "git branch --unset-u",
		"date --se=1", "x='a[$(id)]'; echo ${!x}", "rg --pre=x y", "find . -delete",
	} {
		f.Add(s)
	}
	rules := Defaults()
	f.Fuzz(func(t *testing.T, line string) {
		v, d := timedClassify(line, rules)
		// 1 s: a line of a few kilobytes parses and classifies in about a
		// millisecond; a second means work that grows faster than the input. On a
		// loaded machine one call can wait that long for a core, so a slow call is
		// timed twice more before it counts.
		for try := 0; try < 2 && d > time.Second; try++ {
			_, d = timedClassify(line, rules)
		}
		if d > time.Second {
			t.Fatalf("Classify(%.200q, %d bytes) took %s three times", line, len(line), d)
		}
		switch v.Level {
		case permission.Always, permission.Ask, permission.Never:
		default:
			t.Fatalf("Classify(%q) = level %q", line, v.Level)
		}
		if v.Reason == "" {
			t.Fatalf("Classify(%q) gave no reason", line)
		}
		if again := Classify(line, rules); again != v {
			t.Fatalf("Classify(%q) = %+v, then %+v", line, v, again)
		}
		if v.Level == permission.Always {
			if why := unvouched(line); why != "" {
				t.Fatalf("Classify(%q) = always, but the line %s", line, why)
			}
		}
	})
}

func timedClassify(line string, rules Rules) (permission.Verdict, time.Duration) {
	start := time.Now()
	v := Classify(line, rules)
	return v, time.Since(start)
}

// dangerousOptions are long options an unasked command must not hold, written
// "--shortest|rest": the program takes any prefix from the shortest on as the option.
var dangerousOptions = map[string][]string{
	"file": {"--comp|ile", "--pres|erve-date", "--no-s|andbox"},
	"date": {"--s|et"},
	"rg":   {"--pre|"},
	"git": {"--output|", "--ext|-diff", "--textc|onv", "--exec-path|", "--git-dir|", "--work-tree|",
		"--unset-u|pstream", "--edit|-description", "--set-upstream-to|", "--delete|", "--move|", "--copy|", "--force|"},
}

// holdsOption reports whether the argument name is one of the prefixes spec allows.
func holdsOption(name, spec string) bool {
	shortest, rest, _ := strings.Cut(spec, "|")
	return strings.HasPrefix(name, shortest) && strings.HasPrefix(shortest+rest, name)
}

// unvouched returns what in line an Always verdict must not let through, or "".
func unvouched(line string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return "does not parse"
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ArithmCmd,
			*syntax.LetClause, *syntax.DeclClause, *syntax.CStyleLoop, *syntax.CoprocClause:
			why = "holds " + source(n)
		case *syntax.ParamExp:
			if n.Index != nil || n.Slice != nil || n.Excl && n.Names == 0 || n.Exp != nil && n.Exp.Op == syntax.OtherParamOps {
				why = "holds the expansion " + source(n)
			}
		case *syntax.Redirect:
			if n.Op == syntax.RdrOut || n.Op == syntax.AppOut || n.Op == syntax.RdrClob || n.Op == syntax.RdrAll || n.Op == syntax.AppAll {
				if t, _ := literal(n.Word); !strings.HasPrefix(t, "/dev/") {
					why = "redirects to " + source(n.Word)
				}
			}
		case *syntax.CallExpr:
			why = unvouchedCall(words(n.Args))
		}
		return true
	})
	return why
}

func unvouchedCall(ws []word) string {
	if len(ws) == 0 {
		return ""
	}
	prog := ws[0].text
	if !ws[0].lit {
		return "runs a command named at run time"
	}
	for i, w := range ws[1:] {
		if w.text == "--" {
			break
		}
		name, _, _ := strings.Cut(w.text, "=")
		for _, spec := range dangerousOptions[prog] {
			if holdsOption(name, spec) {
				return "gives " + prog + " " + w.text
			}
		}
		if (prog == "test" || prog == "[") && w.text == "-v" && i+2 < len(ws) && strings.Contains(ws[i+2].text, "[") {
			return "tests -v " + ws[i+2].text
		}
		if prog == "find" && findActions[w.text] != "" {
			return "gives find " + w.text
		}
	}
	return ""
}

// TestReasonsStayShortOnDeepLines: a reason names a long construct by its length, so
// that classifying a deeply nested line stays linear (the corpus entry
// deep-command-substitution took 9 s when every level printed its whole subtree).
func TestReasonsStayShortOnDeepLines(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("$(", 500) + strings.Repeat(")", 500)
	v := Classify(line, Defaults())
	if v.Level != permission.Ask || !strings.Contains(v.Reason, "(1500 bytes of shell)") || len(v.Reason) > 1000 {
		t.Fatalf("Classify(500 nested $() = %s, %d bytes of reason: %.200q", v.Level, len(v.Reason), v.Reason)
	}
}
