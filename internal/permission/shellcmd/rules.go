package shellcmd

import (
	"slices"
	"strings"
)

// Rules are command prefixes. A prefix is a sequence of whole words, separated by
// spaces, matched against a simple command's words after quote removal: "git status"
// matches `git status -s` and `'git' status`, not `git statusx`; "git" alone matches
// every git command.
type Rules struct {
	// Allow lists commands that run without asking. The program must be named exactly
	// (`ls`, not `/bin/ls` or `./ls`, which may be something else).
	Allow []string
	// Deny lists commands that never run. The program is matched by its base name,
	// so "sudo" also refuses /usr/bin/sudo, and through the wrappers command, builtin,
	// env, exec, nice, nohup, time, timeout, stdbuf and xargs.
	Deny []string
	// DenyStandalone lists programs refused when run bare: no argument, no input
	// redirection and not at the end of a pipe, they would wait for a terminal.
	DenyStandalone []string
}

// Defaults are the rules the original tool ships (Vibe's bash allowlist, denylist and
// denylist_standalone, notes/albert-code.md §2.4), with more read-only commands
// allowed and the destructive commands of the brief denied. env and printenv are not
// allowed: they would send the API keys in the environment to the model. cd is not
// allowed: git run from another directory obeys that repository's configuration.
func Defaults() Rules {
	return Rules{
		Allow: []string{
			// The original's allowlist.
			"cat", "echo", "file", "find", "git diff", "git log", "git status", "head",
			"ls", "pwd", "stat", "tail", "tree", "uname", "wc", "which", "whoami",
			// Read-only additions. Options that write or run something (find -exec,
			// git branch -D, rg --pre...) ask, read from each program's option table
			// (options_tables.go, options_git.go, options_find.go); so does an
			// option the table does not know.
			"basename", "date", "df", "dirname", "du", "false", "git branch",
			"git ls-files", "git rev-parse", "git show", "grep", "realpath", "rg",
			"test", "[", "true",
		},
		Deny: []string{
			// The original's denylist: debuggers, editors, multiplexers, interactive
			// shells.
			"gdb", "pdb", "passwd", "nano", "vim", "vi", "emacs", "bash -i", "sh -i",
			"zsh -i", "fish -i", "dash -i", "screen", "tmux",
			// Privilege escalation and machine-wide damage. rm on /, ~ or $HOME, dd
			// onto a device, mkfs.* and git push --force are refused by built-in
			// checks, since a prefix cannot express them.
			"sudo", "su", "doas", "pkexec", "mkfs", "shutdown", "reboot", "halt",
			"poweroff", "systemctl reboot", "systemctl poweroff", "systemctl halt",
		},
		DenyStandalone: []string{
			"python", "python3", "ipython", "node", "irb", "bash", "sh", "zsh", "fish",
			"dash", "nohup", "vi", "vim", "emacs", "nano", "su",
		},
	}
}

// With returns r with more allowed and denied prefixes, as [tools.bash] allow and
// deny add them to the defaults.
func (r Rules) With(allow, deny []string) Rules {
	return Rules{
		Allow:          append(slices.Clip(r.Allow), allow...),
		Deny:           append(slices.Clip(r.Deny), deny...),
		DenyStandalone: slices.Clone(r.DenyStandalone),
	}
}

// prefixes is a compiled prefix list.
type prefixes []prefix

type prefix struct {
	rule  string
	words []string
}

func compile(rules []string) prefixes {
	out := make(prefixes, 0, len(rules))
	for _, r := range rules {
		if ws := strings.Fields(r); len(ws) > 0 {
			out = append(out, prefix{rule: r, words: ws})
		}
	}
	return out
}

// match returns the first rule that is a prefix of ws. A word with an expansion
// matches nothing: its value is not known yet.
func (ps prefixes) match(ws []word) (string, bool) {
	for _, p := range ps {
		if len(p.words) > len(ws) {
			continue
		}
		ok := true
		for i, w := range p.words {
			if !ws[i].lit || ws[i].text != w {
				ok = false
				break
			}
		}
		if ok {
			return p.rule, true
		}
	}
	return "", false
}
