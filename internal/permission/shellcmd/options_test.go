package shellcmd

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/permission"
)

// TestClassifyOptions reads options as each program does: an abbreviation is the
// option it abbreviates, a short cluster is its letters, and an option outside the
// program's table asks.
func TestClassifyOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmd    string
		want   permission.Level
		reason string
	}{
		// The abbreviations.
		{"file --comp -m magic", ask, "--comp (read as --compile) writes a compiled magic file"},
		{"git branch --unset-u", ask, "--unset-u (read as --unset-upstream) changes branches"},
		{"date --se=2020-01-01", ask, "--se=2020-01-01 (read as --set) sets the clock"},
		{"date --s 12:00", ask, "read as --set"},
		// Short clusters and values.
		{"file -vC -m magic", ask, "file -vC (read as -C) writes"},
		{"file -pb x", ask, "changes the access time"},
		{"date -us 12:00", ask, "sets the clock"},
		{"date -d -s", always, ""},               // -s is the value of -d
		{"date -d --set", ask, "reads as --set"}, // a value that reads as a dangerous option
		{"tree -oL out 1", ask, "writes the listing to a file"},
		{"tree -Lo 1 out", ask, "writes the listing to a file"},
		{"tree -L 2 -a", always, ""},
		{"date 010112002030", ask, "sets the clock"},
		{"date -u 0101", ask, "sets the clock"},
		// Programs that take whole names only: an abbreviation is unknown.
		{"rg --pr=cat x", ask, "--pr: the option is unknown to rg"},
		{"rg --pre=cat x", ask, "--pre=cat runs a preprocessor"},
		{"rg --pre cat x", ask, "runs a preprocessor"},
		{"tree --norep", ask, "--norep: the option is unknown to tree"},
		// Unknown and ambiguous options.
		{"ls --frobnicate", ask, "ls --frobnicate: the option is unknown to ls"},
		{"ls -y", ask, "ls -y: the option is unknown to ls"},
		{"ls --s", ask, "ambiguous (--show-control-chars, --si, --size, --sort)"},
		{"git status --sh", ask, "ambiguous (--short, --show-stash)"},
		{"cat --show-all=x f", ask, "--show-all takes no value"},
		// git: what changes the repository, configuration or programs.
		{"git -c core.pager=x log", ask, "git -c changes the repository"},
		{"git -c core.fsmonitor=x status", ask, "git -c"},
		{"git --exec-path=/tmp status", ask, "git --exec-path=/tmp changes"},
		{"git --git-dir=/tmp/x status", ask, "--git-dir"},
		{"git --work-tree /tmp status", ask, "--work-tree"},
		{"git -C /tmp status", ask, "git -C changes"},
		{"git --frob status", ask, "unknown to git"},
		{"git diff --ext-diff", ask, "runs the external diff program"},
		{"git diff --ext", ask, "--ext (read as --ext-diff) runs"},
		{"git log -p --textconv", ask, "runs the text conversion filters"},
		{"git show --output=x HEAD", ask, "writes the diff to a file"},
		{"git diff --outp x", ask, "ambiguous"},
		{"git log --frobnicate", ask, "unknown to git log"},
		{"git branch --edit-desc", ask, "runs an editor"},
		{"git branch -vd old", ask, "changes branches"},
		{"git branch -c a b", ask, "changes branches"},
		{"git branch new", ask, "creates a branch"},
		{"git rev-parse --show-top", ask, "unknown to git rev-parse"},
		{"git diff --stat {--output=x,}", ask, "only known at run time"},
		// find reads primaries by their whole names.
		{"find . -delete", ask, "find -delete deletes files"},
		{"find . -exec rm {} +", ask, "find -exec runs a command"},
		{"find . -fls out", ask, "writes a file"},
		{"find . -frob", ask, "find -frob: the primary is unknown"},
		{"find . -name $p", ask, "may be several words"},
		{`find "$d" -name x`, ask, "only known at run time"},
		{"find -L . -newermt 2024-01-01 -type f -print", always, ""},
		// A file named --pre=x matches a glob: globs ask on programs with
		// dangerous options, not on the others.
		{"rg foo *", ask, "the argument * of rg is only known at run time"},
		{"file *", ask, "only known at run time"},
		{"rg foo -- *", always, ""},
		{"ls *.go", always, ""},
		{"wc -l $f", always, ""},
		{"cat -- --pre", always, ""},
		// Ordinary commands stay unasked.
		{"ls -la", always, ""},
		{"ls -la --color=auto src", always, ""},
		{"ls --almost", always, ""}, // --almost-all, as ls reads it
		{"git status --short", always, ""},
		{"git status -sb", always, ""},
		{"git status --porcelain=v2 -uno", always, ""},
		{"git log --oneline -5", always, ""},
		{"git log -n 3 --format='%h %s' -- src", always, ""},
		{"git log --no-ext HEAD~2..", always, ""},
		{"git --no-pager log -1 --stat", always, ""},
		{"git show HEAD:go.mod", always, ""},
		{"git show --stat -1 HEAD", always, ""},
		{"git diff --stat", always, ""},
		{"git diff --cached -U5 --name-only", always, ""},
		{"git branch --list", always, ""},
		{"git branch -a -vv", always, ""},
		{"git branch --show-current", always, ""},
		{"git ls-files -m --exclude-standard", always, ""},
		{"git rev-parse --abbrev-ref HEAD", always, ""},
		{"git rev-parse --show-toplevel", always, ""},
		{"grep -rn foo .", always, ""},
		{"grep -C3 -E 'a|b' -- -x", always, ""},
		{"grep -3 foo f", always, ""},
		{"rg -n --glob '*.go' x", always, ""},
		{"rg -nA1 foo src", always, ""},
		{"rg --type go -w foo", always, ""},
		{"cat a b | wc -l", always, ""},
		{"head -20 f", always, ""},
		{"tail -n +5 f", always, ""},
		{"test -f go.mod && echo yes", always, ""},
		{"[ -d .git ]", always, ""},
		{"date +%Y", always, ""},
		{"date -u -d @0 '+%F %T'", always, ""},
		{"du -sh .", always, ""},
		{"df -h /", always, ""},
		{"stat -c %s go.mod", always, ""},
		{"file -b --mime-type go.mod", always, ""},
		{"tree -L 2 --dirsfirst -I node_modules", always, ""},
		{"uname -a", always, ""},
		{"which -a go", always, ""},
		{"realpath --relative-to=. src", always, ""},
		{"basename -s .go main.go", always, ""},
		{"pwd -P", always, ""},
		{"echo -n --whatever", always, ""},
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

// TestOptionTablesHoldTheirDangers keeps every dangerous option spelled in a table:
// an ask rule for an option the table does not have would never fire.
func TestOptionTablesHoldTheirDangers(t *testing.T) {
	t.Parallel()
	tables := map[string]*optionTable{}
	for name, tb := range optionTables {
		tables[name] = tb
	}
	for name, tb := range gitTables {
		tables["git "+name] = tb
	}
	for name, tb := range tables {
		for opt := range tb.asks {
			if long, ok := strings.CutPrefix(opt, "--"); ok {
				if _, ok := tb.longs[long]; !ok {
					t.Errorf("%s asks about %s, which its table lacks", name, opt)
				}
			} else if _, ok := tb.shorts[opt[1]]; !ok || len(opt) != 2 {
				t.Errorf("%s asks about %s, which its table lacks", name, opt)
			}
		}
	}
}

// TestEveryAllowedProgramHasATable: an allowlisted program without a table would
// take any option unasked.
func TestEveryAllowedProgramHasATable(t *testing.T) {
	t.Parallel()
	noOptions := map[string]bool{"echo": true, "true": true, "false": true, "test": true, "[": true}
	for _, rule := range Defaults().Allow {
		ws := strings.Fields(rule)
		switch {
		case noOptions[ws[0]], ws[0] == "find":
		case ws[0] == "git":
			if _, ok := gitTables[ws[1]]; !ok {
				t.Errorf("the allow rule %q has no option table", rule)
			}
		default:
			if _, ok := optionTables[ws[0]]; !ok {
				t.Errorf("the allow rule %q has no option table", rule)
			}
		}
	}
}
