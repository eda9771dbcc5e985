package sandbox

import (
	"strings"
	"testing"
)

// The macOS profile cannot run here; its text is checked rule by rule.
func TestSeatbeltProfile(t *testing.T) {
	p := Policy{Mode: WorkspaceWrite, WorkDir: "/Users/u/proj", TempDir: "/private/tmp/ac", Secrets: []string{"/Users/u/.ssh", `/Users/u/we"ird`}}
	prof := seatbeltProfile(p)
	for _, want := range []string{
		"(deny file-write*)",
		`(allow file-write* (subpath "/private/tmp/ac") (subpath "/Users/u/proj")`,
		`(subpath "/Users/u/proj/.git/config")`, `(subpath "/Users/u/proj/.albert-code.toml")`, `(literal "/Users/u/proj/.git")`,
		`(deny file-read* file-write* (subpath "/Users/u/.ssh") (subpath "/Users/u/we\"ird"))`,
		"(deny network-outbound (remote ip))",
	} {
		if !strings.Contains(prof, want) {
			t.Errorf("the profile lacks %s:\n%s", want, prof)
		}
	}
	ro := seatbeltProfile(Policy{Mode: ReadOnly, WorkDir: "/Users/u/proj", TempDir: "/private/tmp/ac", Network: true})
	if strings.Contains(ro, `(subpath "/Users/u/proj")`) || strings.Contains(ro, "network-outbound") {
		t.Errorf("read-only with network: the workspace is writable or the network closed:\n%s", ro)
	}
}
