package sandbox

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

func TestOtherProcessesEnvironmentUnreadable(t *testing.T) {
	needLandlock(t)
	victim := exec.Command("/bin/sleep", "30")
	victim.Env = []string{"VICTIM_MARK=visible"}
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer victim.Process.Kill()
	ws := t.TempDir()
	for _, mode := range []Mode{ReadOnly, WorkspaceWrite} {
		p := Policy{Mode: mode, WorkDir: ws, TempDir: t.TempDir()}
		out, _ := runIn(t, p, ws, fmt.Sprintf("cat /proc/%d/environ; cat /proc/*/environ; kill %d; ps -e | wc -l; echo done", victim.Process.Pid, victim.Process.Pid))
		if strings.Contains(out, "VICTIM_MARK") {
			t.Errorf("%s: another process's environment was read: %s", mode, out)
		}
		if !strings.Contains(out, "done") {
			t.Errorf("%s: the command did not run: %s", mode, out)
		}
	}
	if !alive(victim.Process.Pid) {
		t.Fatal("the victim was killed from the sandbox")
	}
}
