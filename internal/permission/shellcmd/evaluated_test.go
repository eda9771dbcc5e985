package shellcmd

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/permission"
)

// TestClassifyEvaluatedWords holds the words bash evaluates as arithmetic or as a
// variable name. Each "runs" line was run with bash 5.2.15, its payload touching a
// file, and did run the payload; each must ask, the reason naming the construct.
func TestClassifyEvaluatedWords(t *testing.T) {
	t.Parallel()
	const p = `'a[$(rm ~/x; id > /tmp/p)]'`
	tests := []struct {
		cmd    string
		want   permission.Level
		reason string
	}{
		// runs
		{"test -v " + p, ask, "test -v a[$(rm"},
		{"[ -v " + p + " ]", ask, "[ -v a[$(rm"},
		{"[[ -v " + p + " ]]", ask, "[[ -v 'a[$(rm"},
		{"[[ 1 -eq " + p + " ]]", ask, "arithmetic test -eq"},
		{"x=" + p + "; [[ x -lt 1 ]]", ask, "arithmetic test -lt"},
		{"printf -v " + p + " x", ask, "printf -v a[$(rm"},
		{"printf -v" + p + " x", ask, "printf -v a[$(rm"},
		{"declare " + p + "=1", ask, "declare changes variables"},
		{"typeset " + p + "=1", ask, "typeset changes variables"},
		{"f() { local " + p + "=1; }", ask, "local changes variables"},
		{"read " + p + " <<< x", ask, "read assigns to the variable named a[$(rm"},
		{"read -r x " + p + " <<< x", ask, "read assigns to the variable named a[$(rm"},
		{"let " + p, ask, "the arithmetic let 'a[$(rm"},
		{"(( a[$(id)] ))", ask, "the arithmetic (("},
		{"unset " + p, ask, "unset assigns to the variable named a[$(rm"},
		{"unset -v " + p, ask, "unset assigns"},
		{"sleep 1 & wait -n -p " + p, ask, "wait -p a[$(rm"},
		{"x=" + p + "; echo ${!x}", ask, "indirect expansion ${!x}"},
		{"x=" + p + "; echo \"${!x:-y}\"", ask, "indirect expansion"},
		{"a=([$(id)]=1)", ask, "assignment to a"},
		{"i=" + p + "; a=([i]=1)", ask, "assignment to a"},
		{"i=" + p + "; a[i]=1", ask, "assignment to a"},
		{"i=" + p + "; echo ${a[i]}", ask, "expansion ${a[i]} evaluates an array subscript"},
		{"i=" + p + "; echo ${a[@]:i}", ask, "subscript or offset"},
		{"i=" + p + "; test -v 'a[i]'", ask, "test -v a[i]"},
		{`i=` + p + `; test -v "$i"`, ask, "test -v $i"},
		{`set -- ` + p + `; [ -v "$1" ]`, ask, "[ -v $1"},
		{`i=` + p + `; [ -v $i ]`, ask, "[ -v $i"},
		{`i=` + p + `; [ -n x -o $i ]`, ask, "unquoted word $i"},
		{`o=-v n=` + p + `; test "$o" "$n"`, ask, "may be -v"},
		{`test $o`, ask, "unquoted word $o"},
		{"test -v *", ask, "test -v *"}, // a file named a[$(cmd)] ran cmd
		{"[ -f x -o -v a[1] ]", ask, "[ -v a[1]"},
		{"i=" + p + "; echo $[i]", ask, "arithmetic"},
		{"for ((j=i;0;)); do :; done", ask, "arithmetic"},
		{"x=" + p + "; echo ${x@P}", ask, "${x@P}"},
		{`command printf -v ` + p + ` x`, ask, "printf -v"},
		{`builtin unset ` + p, ask, "unset assigns"},
		// Checked and not evaluated by bash, asked about all the same: a variable
		// name that is not one, or a literal that is no integer where test wants one
		// (an error in bash, arithmetic in [[ ]]).
		{"mapfile " + p + " < /dev/null", ask, "mapfile assigns"},
		{"readarray -t " + p + " < /dev/null", ask, "readarray assigns"},
		{"mapfile -C 'rm x' arr < /dev/null", ask, "mapfile -C runs a callback"},
		{"read -a " + p + " <<< x", ask, "read -a a[$(rm"},
		{"getopts a " + p + " -a", ask, "getopts assigns"},
		{"export " + p + "=1", ask, "export changes"},
		{"readonly " + p, ask, "readonly changes"},
		{"test 1 -eq " + p, ask, "test -eq compares a[$(rm"},
		{"[ " + p + " -lt 2 ]", ask, "[ -lt compares a[$(rm"},
		{"[[ -R " + p + " ]]", ask, "[[ -R"},
		{`printf "$f" x`, ask, "printf option or format $f"},
		{`'declare' x=1`, ask, "declare changes"},
		{`\let x=1`, ask, "let evaluates"},
		// Plain names and integers stay as they were.
		{"test -v HOME && echo set", always, ""},
		{"[[ -v HOME ]] && echo set", always, ""},
		{`[ "$a" = "$b" ]`, always, ""},
		{`[ -f "$f" -a -r "$f" ]`, always, ""},
		{`test -n "$x"`, always, ""},
		{`[ "$n" -gt 3 ]`, always, ""},
		{"test 1 -eq 1", always, ""},
		{`test -f 'a[1]'`, always, ""},
		{"echo ${#x} ${!pre@}", always, ""},
		{"read line < go.mod", ask, "`read line` is not in the allowlist"},
		{"unset x", ask, "`unset x` is not in the allowlist"},
	}
	rules := Defaults()
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			t.Parallel()
			v := Classify(tt.cmd, rules)
			if v.Level != tt.want || !strings.Contains(v.Reason, tt.reason) {
				t.Fatalf("Classify(%q) = %s %q, want %s with a reason containing %q", tt.cmd, v.Level, v.Reason, tt.want, tt.reason)
			}
		})
	}
}

// TestEvaluatedWordsHoldUnderUserRules: a user who allows printf or read still gets
// asked about the words bash evaluates.
func TestEvaluatedWordsHoldUnderUserRules(t *testing.T) {
	t.Parallel()
	rules := Defaults().With([]string{"printf", "read", "unset", "wait"}, nil)
	for cmd, want := range map[string]permission.Level{
		"printf '%s' x":                 always,
		"printf -v out '%s' x":          always,
		"printf -v 'a[$(id)]' '%s' x":   ask,
		"read -r line < go.mod":         always,
		"read -r 'a[$(id)]' < go.mod":   ask,
		"read -p 'a[$(id)]' x < go.mod": always,
		"unset 'a[$(id)]'":              ask,
		"wait -p 'a[$(id)]'":            ask,
		"wait -p pid":                   always,
	} {
		if v := Classify(cmd, rules); v.Level != want {
			t.Errorf("Classify(%q) = %s %q, want %s", cmd, v.Level, v.Reason, want)
		}
	}
}
