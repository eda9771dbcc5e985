package shellcmd

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Bash evaluates some words that builtins are given: as arithmetic (let, [[ x -eq y ]])
// or as a variable name, whose array subscript is arithmetic. Arithmetic runs the
// command substitutions it holds, and reads variables recursively, so
// `test -v 'a[$(cmd)]'` runs cmd although the substitution is quoted, and
// `i='a[$(cmd)]'; test -v 'a[i]'` does too. A word bash evaluates is vouched for only
// when it is a plain variable name (or an integer, for arithmetic) written literally.
// Each claim below was checked with bash 5.2.15 (`bash -c`), the payload touching a
// file.

// plainName matches a variable name without a subscript.
var plainName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// plainInteger matches a decimal integer as test's -eq reads it.
var plainInteger = regexp.MustCompile(`^[ \t]*[-+]?[0-9]+[ \t]*$`)

func isPlainName(w word) bool { return w.lit && !w.bare && plainName.MatchString(w.text) }

// noSubscript reports whether w, read as a variable name, has no array subscript
// for bash to evaluate.
func noSubscript(w word) bool { return w.lit && !w.bare && !strings.Contains(w.text, "[") }

// evaluatedWords returns why the simple command ws makes bash evaluate one of its
// words as arithmetic or as a variable name, or "". It looks through `command` and
// `builtin`, which run the builtin all the same.
func evaluatedWords(ws []word) string {
	for len(ws) > 1 && ws[0].lit && (ws[0].text == "command" || ws[0].text == "builtin") {
		ws = ws[1:]
		if ws[0].lit && ws[0].text == "-p" {
			ws = ws[1:]
		}
	}
	if len(ws) == 0 || !ws[0].lit {
		return ""
	}
	name, args := ws[0].text, ws[1:]
	switch name {
	case "test", "[":
		if name == "[" && len(args) > 0 && args[len(args)-1].lit && args[len(args)-1].text == "]" {
			args = args[:len(args)-1]
		}
		return testWords(name, args)
	case "printf":
		return printfWords(args)
	case "read":
		return builtinNames(name, args, "dinNptu", "a", true)
	case "mapfile", "readarray":
		for _, a := range args {
			if a.lit && strings.HasPrefix(a.text, "-") && strings.Contains(a.text, "C") && !strings.HasPrefix(a.text, "--") {
				return fmt.Sprintf("%s -C runs a callback command", name)
			}
		}
		return builtinNames(name, args, "dnOsuCc", "", true)
	case "unset":
		return builtinNames(name, args, "", "", true)
	case "getopts":
		if len(args) >= 2 && !isPlainName(args[1]) {
			return fmt.Sprintf("getopts assigns to the variable named %s, and bash evaluates an array subscript as arithmetic, which may run code", args[1].text)
		}
	case "wait":
		return builtinNames(name, args, "", "p", false)
	case "let":
		return fmt.Sprintf("let evaluates %s as arithmetic, which may run code", display(args))
	case "declare", "typeset", "local", "export", "readonly":
		return fmt.Sprintf("%s changes variables and their attributes, and evaluates the array subscripts in their names", name)
	}
	return ""
}

// testWords checks the arguments of test and [. Bash evaluates the name after -v
// (test -v 'a[$(cmd)]' runs cmd); -R, -t and the arithmetic comparisons were checked
// and read their operand without evaluating it. The expression is only known once
// the words are: a quoted expansion may be -v, and an unquoted one may split into
// `-v a[$(cmd)]` or match a file of that name.
func testWords(name string, args []word) string {
	for i, a := range args {
		next := i + 1
		switch {
		case a.bare:
			return fmt.Sprintf("the unquoted word %s of %s may split or match file names, and become -v NAME, whose array subscript bash evaluates", a.text, name)
		case !a.lit && next < len(args) && !noSubscript(args[next]):
			return fmt.Sprintf("the word %s of %s may be -v, and bash evaluates the array subscript in the name %s after it", a.text, name, args[next].text)
		case a.lit && a.text == "-v" && next < len(args) && !noSubscript(args[next]):
			return fmt.Sprintf("%s -v %s: bash evaluates the array subscript in the variable name, which may run code", name, args[next].text)
		case a.lit && slices.Contains(testArithmetic, a.text) && i > 0 && next < len(args):
			// test reads these operands as plain integers; a literal that is not one
			// is an error in bash, so asking costs nothing and holds if a shell evaluates it.
			for _, o := range []word{args[i-1], args[next]} {
				if o.lit && !plainInteger.MatchString(o.text) {
					return fmt.Sprintf("%s %s compares %s, which is not an integer and would be arithmetic in [[ ]]", name, a.text, o.text)
				}
			}
		}
	}
	return ""
}

var testArithmetic = []string{"-eq", "-ne", "-lt", "-le", "-gt", "-ge"}

// printfWords checks printf -v NAME, which assigns to NAME (printf -v 'a[$(cmd)]' x
// runs cmd). printf takes options only before its format.
func printfWords(args []word) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.lit || a.bare:
			return fmt.Sprintf("the printf option or format %s is only known at run time, and may be -v NAME, whose array subscript bash evaluates", a.text)
		case a.text == "--" || !strings.HasPrefix(a.text, "-v"):
			return ""
		}
		v := word{text: strings.TrimPrefix(a.text, "-v"), lit: true}
		if v.text == "" {
			if i+1 >= len(args) {
				return ""
			}
			i++
			v = args[i]
		}
		if !isPlainName(v) {
			return fmt.Sprintf("printf -v %s: bash evaluates the array subscript in the variable name, which may run code", v.text)
		}
	}
	return ""
}

// builtinNames checks a builtin whose options in names take a variable name (read
// -a, wait -p) and, when operandsAreNames, whose operands are variable names too
// (read, unset, mapfile). The options in values take some other value.
func builtinNames(prog string, args []word, values, names string, operandsAreNames bool) string {
	options := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.lit || a.bare:
			if operandsAreNames {
				return fmt.Sprintf("%s assigns to a variable named by %s, only known at run time; bash evaluates an array subscript in it, which may run code", prog, a.text)
			}
			if options && i+1 < len(args) && !isPlainName(args[i+1]) {
				return fmt.Sprintf("the word %s of %s may be an option naming the variable %s, whose array subscript bash evaluates", a.text, prog, args[i+1].text)
			}
		case options && a.text == "--":
			options = false
		case options && len(a.text) > 1 && a.text[0] == '-':
			for j := 1; j < len(a.text); j++ {
				c := a.text[j]
				if !strings.ContainsRune(values+names, rune(c)) {
					continue
				}
				v := word{text: a.text[j+1:], lit: true}
				if v.text == "" && i+1 < len(args) {
					i++
					v = args[i]
				}
				if strings.ContainsRune(names, rune(c)) && !isPlainName(v) {
					return fmt.Sprintf("%s -%c %s: bash evaluates the array subscript in the variable name, which may run code", prog, c, v.text)
				}
				break
			}
		default:
			options = false
			if operandsAreNames && !isPlainName(a) {
				return fmt.Sprintf("%s assigns to the variable named %s, and bash evaluates an array subscript as arithmetic, which may run code", prog, a.text)
			}
		}
	}
	return ""
}
