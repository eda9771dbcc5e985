package shellcmd

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// guard makes an allowlisted command ask when its arguments write files, run other
// programs or are not understood: each option is read as the program reads it, from
// its option table (options_tables.go, options_git.go, options_find.go). It applies
// whichever allow rule matched.
func guard(name string, args []word) string {
	switch name {
	case "find":
		return findCheck(args)
	case "git":
		return gitCheck(args)
	}
	if t, ok := optionTables[name]; ok {
		return t.check(name, args)
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
