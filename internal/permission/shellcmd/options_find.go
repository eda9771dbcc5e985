package shellcmd

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// GNU findutils 4.9.0, `find --help` and find(1): find reads its own options, then
// paths, then an expression of primaries, which it takes by their whole names.

// findValued are the primaries that take one value.
var findValued = strings.Fields(`-name -iname -path -ipath -wholename -iwholename -regex -iregex
	-lname -ilname -type -xtype -user -group -uid -gid -perm -size -newer -anewer -cnewer -mtime
	-atime -ctime -mmin -amin -cmin -used -inum -samefile -links -maxdepth -mindepth -regextype
	-fstype -context -printf -files0-from`)

// findFlags are the primaries and operators that take no value.
var findFlags = strings.Fields(`-print -print0 -ls -prune -quit -true -false -empty -executable
	-readable -writable -nouser -nogroup -depth -d -mount -xdev -noleaf -ignore_readdir_race
	-noignore_readdir_race -daystart -follow -warn -nowarn -help --help -version --version -not
	-and -or -a -o ! ( ) ,`)

// findActions are the primaries that delete, write or run something.
var findActions = map[string]string{
	"-exec": "runs a command", "-execdir": "runs a command", "-ok": "runs a command",
	"-okdir": "runs a command", "-delete": "deletes files", "-fprint": "writes a file",
	"-fprint0": "writes a file", "-fprintf": "writes a file", "-fls": "writes a file",
}

// findNewer matches -newerXY, which compares with a reference of kind Y.
var findNewer = regexp.MustCompile(`^-newer[aBcm][aBcmt]$`)

// findCheck returns why find with args needs a person's eye, or "".
func findCheck(args []word) string {
	i := 0
	// Options before the paths: -H -L -P, -D debugopts, -Olevel.
	for ; i < len(args) && args[i].lit && !args[i].bare; i++ {
		s := args[i].text
		if s == "-D" {
			i++
		} else if s != "-H" && s != "-L" && s != "-P" && !(strings.HasPrefix(s, "-O") && len(s) > 2) {
			break
		}
	}
	expression := false
	for ; i < len(args); i++ {
		a := args[i]
		if !a.lit || a.bare {
			return fmt.Sprintf("the argument %s of find is only known at run time, and may be a primary such as -delete", a.text)
		}
		s := a.text
		if !expression && !strings.HasPrefix(s, "-") && s != "(" && s != "!" && s != ")" && s != "," {
			continue // a path
		}
		expression = true
		switch {
		case findActions[s] != "":
			return fmt.Sprintf("find %s %s", s, findActions[s])
		case slices.Contains(findValued, s) || findNewer.MatchString(s):
			i++
			if i < len(args) && args[i].bare {
				return fmt.Sprintf("the value %s of find %s is only known at run time, and may be several words", args[i].text, s)
			}
		case slices.Contains(findFlags, s):
		default:
			return fmt.Sprintf("find %s: the primary is unknown to find; only known primaries run unasked", s)
		}
	}
	return ""
}
