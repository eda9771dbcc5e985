package agentenv

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/permission"
	"github.com/etalab-ia/albert-code/internal/permission/shellcmd"
	"github.com/etalab-ia/albert-code/internal/profile"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/tool"
)

func bashArgs(cmd string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return b
}

// Without a sandbox, a command the allowlist would let run unasked asks instead.
func TestNoSandboxMeansEveryCommandAsks(t *testing.T) {
	classify := shellcmd.Defaults().ClassifyCall
	missing := failClosed(classify, sandbox.Status{Mode: sandbox.WorkspaceWrite, Reason: "no Landlock"})
	if v, _ := missing(bashArgs("ls")); v.Level != permission.Ask || v.Reason == "" {
		t.Fatalf("ls without a sandbox: %+v", v)
	}
	if v, _ := missing(bashArgs("sudo ls")); v.Level != permission.Never {
		t.Fatalf("a denial must stay a denial: %+v", v)
	}
	for _, st := range []sandbox.Status{{Mode: sandbox.WorkspaceWrite, Active: true}, {Mode: sandbox.Off}} {
		if v, _ := failClosed(classify, st)(bashArgs("ls")); v.Level != permission.Always {
			t.Fatalf("with %+v, ls asks: %+v", st, v)
		}
	}
}

func TestConfineChoosesTheMode(t *testing.T) {
	bash := tool.Info{Name: "bash"}
	def := confine(profile.Profile{Name: "default"})
	cases := []struct {
		cmd   string
		asked bool
		want  sandbox.Mode
	}{
		{"ls -la", false, sandbox.ReadOnly},
		{"make test", false, sandbox.WorkspaceWrite}, // allowed by the user's own rules
		{"ls -la", true, sandbox.WorkspaceWrite},
		{"npm install", true, sandbox.WorkspaceWrite},
	}
	for _, c := range cases {
		if got := def(bash, bashArgs(c.cmd), c.asked); got != c.want {
			t.Errorf("%q asked=%v: %s, want %s", c.cmd, c.asked, got, c.want)
		}
	}
	if got := confine(profile.Profile{Name: "plan", ReadOnly: true})(bash, bashArgs("make"), true); got != sandbox.ReadOnly {
		t.Errorf("plan: %s", got)
	}
	if got := confine(profile.Profile{Name: "explore", Subagent: true})(bash, bashArgs("make"), true); got != sandbox.ReadOnly {
		t.Errorf("sub-agent: %s", got)
	}
}

// Closing the Env removes the sandbox's private temporary directory; a command
// after that gets a new one.
func TestCloseRemovesTheSandboxTempDir(t *testing.T) {
	x := newExtEnv(t, "", fakemodel.Script{})
	e := x.load(t, true)
	sb := e.Sandbox()
	tmp, err := sb.TempDir()
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Fatalf("%s outlived the Env: %v", tmp, err)
	}
	if e.Sandbox() != sb {
		t.Fatal("the Env made another sandbox after Close")
	}
	again, err := sb.TempDir()
	if err != nil || again == tmp {
		t.Fatalf("after Close: %q, %v", again, err)
	}
	os.RemoveAll(again)
}
