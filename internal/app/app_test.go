package app

import (
	"bytes"
	"strings"
	"testing"
)

func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestVersion(t *testing.T) {
	code, out, _ := runMain(t, "version")
	if code != ExitOK || !strings.HasPrefix(out, "albert-code ") {
		t.Fatalf("version: code %d, out %q", code, out)
	}
}

func TestUnknownFlagIsAUsageError(t *testing.T) {
	code, _, errOut := runMain(t, "--frobnicate")
	if code != ExitUsage || !strings.Contains(errOut, "frobnicate") {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
}

func TestVersionFlag(t *testing.T) {
	code, out, _ := runMain(t, "--version")
	if code != ExitOK || !strings.HasPrefix(out, "albert-code ") {
		t.Fatalf("--version: code %d, out %q", code, out)
	}
}

// Each command family, built in its own package, is reachable from the root.
func TestCommandFamiliesAreWired(t *testing.T) {
	for family, want := range map[string]string{
		"sessions": "List, show and delete saved sessions",
		"config":   "Inspect and change the configuration",
		"trust":    "--remove",
		"cron":     "albert-code cron list jobs.yml",
		"graph":    "communities",
		"migrate":  "docs/migrating.md",
		"quota":    "quota_providers",
		"serve":    "ALBERT_CODE_API_MODE=1",
		"acp":      "Agent Client Protocol",
	} {
		code, out, errOut := runMain(t, family, "--help")
		if code != ExitOK || !strings.Contains(out, want) {
			t.Errorf("%s --help: code %d, stdout %q, stderr %q", family, code, out, errOut)
		}
	}
}
