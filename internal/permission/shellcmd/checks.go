package shellcmd

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// guards make an allowlisted command ask when its arguments write files or run other
// programs. They apply whichever allow rule matched, and any argument with an
// expansion makes a guarded command ask, since it could turn into such a flag.
var guards = map[string]func(args []string) string{
	"find": findGuard,
	"git":  gitGuard,
	"rg":   flagGuard("runs a preprocessor command", "--pre"),
	"tree": flagGuard("writes files", "-o", "-R"),
	"date": dateGuard,
	"file": flagGuard("writes a compiled magic file", "-C", "--compile"),
}

func guard(name string, args []word) string {
	g, ok := guards[name]
	if !ok {
		return ""
	}
	plain := make([]string, len(args))
	for i, a := range args {
		if !a.lit {
			return fmt.Sprintf("the argument %s of %s is only known at run time", a.text, name)
		}
		plain[i] = a.text
	}
	return g(plain)
}

// flagGuard asks when one of flags is given, alone or as --flag=value.
func flagGuard(what string, flags ...string) func([]string) string {
	return func(args []string) string {
		for _, a := range args {
			name, _, _ := strings.Cut(a, "=")
			if slices.Contains(flags, name) {
				return fmt.Sprintf("%s %s", a, what)
			}
		}
		return ""
	}
}

// findActions are the find primaries that delete, write or run something.
var findActions = []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}

func findGuard(args []string) string {
	for _, a := range args {
		if slices.Contains(findActions, a) {
			return fmt.Sprintf("find %s deletes, writes or runs commands", a)
		}
	}
	return ""
}

func dateGuard(args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "--set") || shortFlags(a, "s") {
			return fmt.Sprintf("date %s sets the clock", a)
		}
	}
	return ""
}

func gitGuard(args []string) string {
	if len(args) == 0 {
		return ""
	}
	switch args[0] {
	case "branch":
		return gitBranchGuard(args[1:])
	case "diff", "log", "show":
		for _, a := range args[1:] {
			if a == "--ext-diff" || a == "--output" || strings.HasPrefix(a, "--output=") {
				return fmt.Sprintf("git %s %s writes a file or runs a diff program", args[0], a)
			}
		}
	}
	return ""
}

// gitBranchChanges are the long options with which git branch changes branches.
var gitBranchChanges = []string{
	"--delete", "--move", "--copy", "--force", "--set-upstream", "--unset-upstream",
	"--edit-description", "--track", "--no-track", "--create-reflog", "--recurse-submodules",
}

// gitBranchValues are the list options that take their value as the next word.
var gitBranchValues = []string{"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format"}

// gitBranchGuard lets git branch only list: no changing option, and no branch name
// unless --list makes it a pattern.
func gitBranchGuard(args []string) string {
	list, named := false, ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, _ := strings.Cut(a, "=")
		switch {
		case a == "--list":
			list = true
		case slices.Contains(gitBranchValues, a):
			i++
		case slices.ContainsFunc(gitBranchChanges, func(c string) bool { return strings.HasPrefix(name, c) }):
			return fmt.Sprintf("git branch %s changes branches", a)
		case shortFlags(a, "dDmMcCfut"):
			return fmt.Sprintf("git branch %s changes branches", a)
		case shortFlags(a, "l"):
			list = true
		case !strings.HasPrefix(a, "-") && named == "":
			named = a
		}
	}
	if named != "" && !list {
		return fmt.Sprintf("git branch %s creates a branch", named)
	}
	return ""
}

// shortFlags reports whether a is a cluster of short options (-vd) holding one of
// letters.
func shortFlags(a, letters string) bool {
	return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], letters)
}

// refusal returns why a command is refused whatever the rules, or "".
func refusal(prog string, args []string) string {
	switch {
	case prog == "rm":
		return rmRefusal(args)
	case prog == "dd":
		for _, a := range args {
			if dev, ok := strings.CutPrefix(a, "of=/dev/"); ok && !harmlessDevices[dev] {
				return fmt.Sprintf("dd %s overwrites a device", a)
			}
		}
	case strings.HasPrefix(prog, "mkfs."):
		return prog + " formats a file system"
	case prog == "git":
		return gitPushRefusal(args)
	}
	return ""
}

// harmlessDevices are the /dev files writing to which loses nothing.
var harmlessDevices = map[string]bool{"null": true, "stdout": true, "stderr": true}

// rmRefusal refuses a recursive or forced rm of the root, the home directory, a
// directory just below the root, or everything here.
func rmRefusal(args []string) string {
	forced := false
	for _, a := range args {
		if a == "--no-preserve-root" {
			return "rm --no-preserve-root removes the root"
		}
		if a == "--recursive" || a == "--force" || shortFlags(a, "rRf") {
			forced = true
		}
	}
	if !forced {
		return ""
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		t := path.Clean(a)
		switch {
		case t == "*", t == "~", t == "~/*", t == "$HOME", t == "$HOME/*",
			strings.HasPrefix(t, "/") && strings.Count(t, "/") == 1:
			return fmt.Sprintf("rm on %s removes a top-level directory", a)
		}
	}
	return ""
}

// gitPushRefusal refuses a forced push: --force, -f, --force-with-lease or a +refspec.
func gitPushRefusal(args []string) string {
	i := gitSubcommand(args)
	if i < 0 || args[i] != "push" {
		return ""
	}
	for _, a := range args[i+1:] {
		if strings.HasPrefix(a, "--force") || shortFlags(a, "f") || strings.HasPrefix(a, "+") {
			return fmt.Sprintf("git push %s overwrites the remote history", a)
		}
	}
	return ""
}

// gitSubcommand returns the index of git's subcommand, past the global options, or -1.
func gitSubcommand(args []string) int {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case !strings.HasPrefix(a, "-"):
			return i
		}
	}
	return -1
}

// wrappers run their arguments as a command; the deny rules look through them.
var wrappers = []string{"command", "builtin", "env", "exec", "nice", "nohup", "time", "timeout", "stdbuf", "xargs"}

// unwrap returns the command a wrapper runs, skipping the wrapper's options,
// variable assignments and numeric arguments (nice -n 10, timeout 5s), or nil.
func unwrap(ws []word) []word {
	if len(ws) == 0 || !slices.Contains(wrappers, path.Base(ws[0].text)) {
		return nil
	}
	rest := ws[1:]
	for len(rest) > 0 && skippable(rest[0].text) {
		rest = rest[1:]
	}
	return rest
}

func skippable(s string) bool {
	if strings.HasPrefix(s, "-") || strings.Contains(s, "=") {
		return true
	}
	n := strings.TrimRight(s, "smhd")
	return n != "" && strings.Trim(n, "0123456789.") == ""
}
