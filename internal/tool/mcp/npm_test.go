package mcp

import (
	"os"
	"path/filepath"
	"testing"
)

// npmBin returns the path of a server installed from testdata/servers/package-lock.json
// (npm ci --prefix internal/tool/mcp/testdata/servers). Without it the test fails
// and says how to install it.
func npmBin(t testing.TB, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", "servers", "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(name + " is not installed: run npm ci --prefix internal/tool/mcp/testdata/servers (as .ci/run does)")
	}
	return path
}
