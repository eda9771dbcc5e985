package app

import (
	"bytes"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestVersion(t *testing.T) {
	code, out, _ := run(t, "version")
	if code != ExitOK || !strings.HasPrefix(out, "albert-code ") {
		t.Fatalf("version: code %d, out %q", code, out)
	}
}

func TestUnknownCommandIsAUsageError(t *testing.T) {
	code, _, errOut := run(t, "frobnicate")
	if code != ExitUsage || !strings.Contains(errOut, "frobnicate") {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
}
