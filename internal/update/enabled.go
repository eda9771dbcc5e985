package update

import (
	"fmt"
	"strings"
)

// EnvNoCheck turns the check off: ALBERT_CODE_NO_UPDATE_CHECK=1.
const EnvNoCheck = "ALBERT_CODE_NO_UPDATE_CHECK"

// InstallHint says how to update; albert-code is installed with go install.
const InstallHint = "go install github.com/etalab-ia/albert-code/cmd/...@latest (or git pull and go install ./cmd/... in your clone)"

// OffReason says why the check must not run, or "" when it may: configOn is the
// update_check setting. A CI job (CI set, as every CI service does) has no one to
// read the notice, and would ask the feed on every run from a fresh home.
func OffReason(lookup func(string) (string, bool), configOn bool) string {
	switch {
	case !configOn:
		return "update_check = false"
	case isSet(lookup, EnvNoCheck):
		return EnvNoCheck + " is set"
	case isSet(lookup, "CI"):
		return "CI is set"
	}
	return ""
}

// isSet reads a switch variable: any value but "", "0" or "false" turns it on.
func isSet(lookup func(string) (string, bool), name string) bool {
	v, _ := lookup(name)
	v = strings.TrimSpace(v)
	return v != "" && v != "0" && !strings.EqualFold(v, "false")
}

// Notice is the line the UI shows for a newer release.
func Notice(rel Release, current string) string {
	s := fmt.Sprintf("albert-code %s is available (you have %s): %s", rel.Tag, current, InstallHint)
	if rel.URL != "" {
		s += "; what changed: " + rel.URL
	}
	return s
}
