package app

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// `albert-code acp` answers on stdout with protocol messages only, and ends cleanly
// when the editor closes its stream.
func TestACPCommandSpeaksOnlyProtocolOnStdout(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("ALBERT_CODE_HOME", filepath.Join(home, ".albert-code"))
	t.Setenv("ALBERT_API_KEY", "k")
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}` + "\n" +
		`not json` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"` + filepath.ToSlash(home) + `","mcpServers":[]}}` + "\n")
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"acp"}, in, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
	ids := map[float64]bool{}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("stdout has a line that is not a JSON-RPC message: %q", line)
		}
		if id, ok := m["id"].(float64); ok && m["result"] != nil {
			ids[id] = true
		}
	}
	if !ids[1] || !ids[2] || !strings.Contains(stdout.String(), `"code":-32700`) {
		t.Fatalf("stdout: %s", stdout.String())
	}
}

func TestMainACPReportsItsVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := MainACP([]string{"--version"}, strings.NewReader(""), &stdout, &stderr); code != ExitOK || !strings.Contains(stdout.String(), Version()) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
