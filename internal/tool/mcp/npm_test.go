package mcp

import (
	"os"
	"path/filepath"
	"testing"
)

// npmBin returns the path of a server installed from testdata/servers/package-lock.json
// (npm ci --prefix internal/tool/mcp/testdata/servers). Without it the test fails
// when CI is set and is skipped otherwise.
func npmBin(t testing.TB, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", "servers", "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		msg := name + " is not installed: run npm ci --prefix internal/tool/mcp/testdata/servers"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}
