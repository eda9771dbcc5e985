package shellcmd

import (
	"fmt"
	"slices"
	"strings"
)

// git 2.39.5. git itself reads its global options by whole name (git.c); the
// subcommands status, branch and ls-files use parse-options, which also takes a
// unique prefix of a long option; diff, log and show take the --no- forms of their
// diff options by prefix (git diff --no-ext is --no-ext-diff) and the others whole,
// so reading them all by prefix asks about the same options or more; rev-parse reads
// its options by whole name.

// gitGlobalSafe are the global options that change nothing about what git runs or
// which repository and configuration it reads (git(1)).
var gitGlobalSafe = []string{
	"--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs", "--glob-pathspecs",
	"--noglob-pathspecs", "--icase-pathspecs", "--no-replace-objects", "--version", "--help",
	"--html-path", "--man-path", "--info-path",
}

// gitGlobalAsks are the global options that change which repository, configuration
// or programs git uses, or start a pager.
var gitGlobalAsks = []string{
	"-c", "--config-env", "-C", "--git-dir", "--work-tree", "--namespace", "--exec-path",
	"--bare", "--super-prefix", "--attr-source", "-p", "--paginate", "--list-cmds",
}

// gitDiffOptions are the diff options of git-diff(1), shared by diff, log and show.
const gitDiffOptions = "abbrev[=] anchored= base binary break-rewrites[=] check color-moved-ws= color-moved[=] " +
	"color-words[=] color[=] compact-summary cumulative diff-algorithm= diff-filter= dirstat-by-file[=] " +
	"dirstat[=] dst-prefix= exit-code ext-diff find-copies-harder find-copies[=] find-object= find-renames[=] " +
	"full-index function-context histogram ignore-all-space ignore-blank-lines ignore-cr-at-eol " +
	"ignore-matching-lines= ignore-space-at-eol ignore-space-change ignore-submodules[=] indent-heuristic " +
	"inter-hunk-context= irreversible-delete ita-invisible-in-index line-prefix= minimal name-only " +
	"name-status no-color no-color-moved no-color-moved-ws no-ext-diff no-indent-heuristic no-patch " +
	"no-prefix no-relative no-rename-empty no-renames no-textconv numstat ours output-indicator-context= " +
	"output-indicator-new= output-indicator-old= output= patch patch-with-raw patch-with-stat patience " +
	"pickaxe-all pickaxe-regex quiet raw relative[=] rename-empty rotate-to= shortstat skip-to= " +
	"src-prefix= stat[=] submodule[=] summary text textconv theirs unified= word-diff-regex= word-diff[=] " +
	"ws-error-highlight= stat-width= stat-name-width= stat-count= stat-graph-width= no-stat"

// gitDiffAsks are the diff options that write a file or run a program.
var gitDiffAsks = map[string]string{
	"--output":   "writes the diff to a file",
	"--ext-diff": "runs the external diff program",
	"--textconv": "runs the text conversion filters",
}

// gitLogOptions are the revision and formatting options of git-log(1), which
// git-show(1) also takes.
const gitLogOptions = "abbrev-commit after= all all-match alternate-refs ancestry-path[=] author-date-order " +
	"author= basic-regexp before= bisect boundary branches[=] cc cherry cherry-mark cherry-pick children " +
	"clear-decorations combined-all-paths committer= date-order date= decorate-refs-exclude= decorate-refs= " +
	"decorate[=] dense diff-merges= do-walk encoding= exclude-first-parent-only exclude-hidden= exclude= " +
	"expand-tabs[=] extended-regexp first-parent fixed-strings follow format= full-diff full-history glob= " +
	"graph grep-reflog= grep= ignore-missing invert-grep left-only left-right log-size mailmap max-count= " +
	"max-parents= merge merges min-parents= no-abbrev-commit no-decorate no-diff-merges no-expand-tabs " +
	"no-mailmap no-max-parents no-merges no-min-parents no-notes no-standard-notes no-use-mailmap " +
	"no-walk[=] not notes[=] oneline parents perl-regexp pretty[=] reflog regexp-ignore-case relative-date " +
	"remotes[=] remove-empty reverse right-only show-linear-break[=] show-notes[=] show-pulls " +
	"show-signature simplify-by-decoration simplify-merges since-as-filter= since= single-worktree skip= " +
	"source sparse standard-notes stdin tags[=] topo-order until= use-mailmap walk-reflogs"

// gitTables are the option tables of the allowlisted git subcommands.
var gitTables = map[string]*optionTable{
	// git-diff(1), with the revision options diff takes (--cached, --merge-base...).
	"diff": optionTable{
		short:  "0123B::C::DG:I:M::O:RS:U::WX::abl:psuwz",
		long:   gitDiffOptions + " cached staged merge-base no-index",
		digits: true,
		asks:   gitDiffAsks,
	}.compiled(),
	// git-log(1); git log -5 is git log -n 5.
	"log": optionTable{
		short:  "B::C::DEFG:I:L:M::O:PRS:U::WX::abcgil:mn:prstuwz",
		long:   gitDiffOptions + " " + gitLogOptions,
		digits: true,
		asks:   gitDiffAsks,
	}.compiled(),
	// git-show(1), which takes git log's options.
	"show": optionTable{
		short:  "B::C::DEFG:I:L:M::O:PRS:U::WX::abcgil:mn:prstuwz",
		long:   gitDiffOptions + " " + gitLogOptions,
		digits: true,
		asks:   gitDiffAsks,
	}.compiled(),
	// `git status -h`.
	"status": optionTable{
		short: "bM::su::vz",
		long: "verbose short branch show-stash ahead-behind no-ahead-behind porcelain[=] long null " +
			"untracked-files[=] ignored[=] ignore-submodules[=] column[=] no-column renames no-renames find-renames[=]",
	}.compiled(),
	// `git ls-files -h`.
	"ls-files": optionTable{
		short: "cdfikmostuvx:X:z",
		long: "cached deleted modified others ignored stage killed directory empty-directory " +
			"no-empty-directory eol unmerged resolve-undo exclude= exclude-from= exclude-per-directory= " +
			"exclude-standard full-name recurse-submodules error-unmatch with-tree= abbrev[=] debug " +
			"deduplicate sparse format=",
	}.compiled(),
	// git-rev-parse(1); rev-parse reads whole names.
	"rev-parse": optionTable{
		short: "q",
		long: "abbrev-ref[=] absolute-git-dir after= all before= branches[=] default= disambiguate= " +
			"exclude-hidden= exclude= flags git-common-dir git-dir git-path= glob= is-bare-repository " +
			"is-inside-git-dir is-inside-work-tree is-shallow-repository keep-dashdash local-env-vars " +
			"no-flags no-revs not parseopt path-format= prefix= quiet remotes[=] resolve-git-dir= revs-only " +
			"shared-index-path short[=] show-cdup show-object-format[=] show-prefix " +
			"show-superproject-working-tree show-toplevel since= sq sq-quote stop-at-non-option stuck-long " +
			"symbolic symbolic-full-name tags[=] until= verify",
		exact: true,
	}.compiled(),
	// `git branch -h`. It lists branches only without a changing option, and
	// without a name unless --list makes the names patterns.
	"branch": optionTable{
		short: "aCcDdfilMmqrt::u:v",
		long: "abbrev[=] all color[=] column[=] contains= copy create-reflog delete edit-description force " +
			"format= ignore-case list merged= move no-abbrev no-color no-column no-contains= no-merged= " +
			"no-track points-at= quiet recurse-submodules remotes set-upstream set-upstream-to= show-current " +
			"sort= track[=] unset-upstream verbose",
		asks: gitBranchAsks(),
		after: func(p parsedArgs) string {
			if len(p.operands) > 0 && !p.has("--list", "-l") {
				return fmt.Sprintf("git branch %s creates a branch", p.operands[0])
			}
			return ""
		},
	}.compiled(),
}

func gitBranchAsks() map[string]string {
	asks := map[string]string{}
	for _, o := range strings.Fields(`-d -D --delete -m -M --move -c -C --copy -f --force -u
		--set-upstream-to --set-upstream --unset-upstream -t --track --no-track --create-reflog
		--recurse-submodules`) {
		asks[o] = "changes branches"
	}
	asks["--edit-description"] = "runs an editor"
	return asks
}

// gitGlobals returns git's arguments from the subcommand on, past the global
// options, or why a global option needs a person's eye: it changes which repository,
// configuration or programs git uses, or it is unknown.
func gitGlobals(args []word) ([]word, string) {
	for i, a := range args {
		if !a.lit || a.bare {
			return nil, fmt.Sprintf("the argument %s of git is only known at run time, and may be an option", a.text)
		}
		name, _, _ := strings.Cut(a.text, "=")
		switch {
		case slices.Contains(gitGlobalAsks, name):
			return nil, fmt.Sprintf("git %s changes the repository, configuration or programs git uses", a.text)
		case slices.Contains(gitGlobalSafe, a.text):
		case strings.HasPrefix(a.text, "-"):
			return nil, fmt.Sprintf("git %s: the option is unknown to git; only known options run unasked", a.text)
		default:
			return args[i:], ""
		}
	}
	return nil, ""
}

// gitCheck returns why git with args needs a person's eye, or "": a global option
// that changes what git reads or runs, or an option of the subcommand that writes or
// runs something.
func gitCheck(args []word) string {
	rest, reason := gitGlobals(args)
	if reason != "" || len(rest) == 0 {
		return reason
	}
	if t, ok := gitTables[rest[0].text]; ok {
		return t.check("git "+rest[0].text, rest[1:])
	}
	return ""
}
