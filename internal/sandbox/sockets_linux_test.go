package sandbox

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dialHelper connects to the Unix socket at path and says whether it could.
func dialHelper(path string) {
	c, err := net.Dial("unix", path)
	if err != nil {
		fmt.Println("refused:", err)
		return
	}
	c.Close()
	fmt.Println("connected")
}

func listenUnix(t *testing.T, path string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
}

// dialFrom runs the test binary as a command under backend b and policy p, dialing
// path.
func dialFrom(t *testing.T, b Backend, p Policy, path string) string {
	t.Helper()
	// The absolute path: the command starts in the workspace, and .ci/run starts the
	// test binary as ./sandbox.test.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), "SANDBOX_TEST_DIAL="+path)
	cmd.Dir = p.WorkDir
	var release func()
	if b == "" {
		release, err = guardOnly(cmd)
	} else {
		release, err = confine(cmd, b, p)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// TestSessionSocketsOutOfReach: the user's own sockets outside the workspace (an
// ssh-agent, systemd --user, tmux) would let an approved command act outside the
// sandbox; it finds none there. A socket in the workspace stays reachable.
func TestSessionSocketsOutOfReach(t *testing.T) {
	needLandlock(t)
	session, ws := t.TempDir(), t.TempDir()
	agent := filepath.Join(session, "agent.sock")
	own := filepath.Join(ws, "app.sock")
	listenUnix(t, agent)
	listenUnix(t, own)
	if out := dialFrom(t, "", Policy{}, agent); !strings.Contains(out, "connected") {
		t.Fatalf("the helper cannot reach the socket unconfined: %s", out)
	}
	for _, b := range []Backend{BackendLandlock, BackendBubblewrap} {
		p := Policy{Mode: WorkspaceWrite, WorkDir: ws, TempDir: t.TempDir(), Network: true, Backend: b}
		if out := dialFrom(t, b, p, agent); !strings.Contains(out, "refused") {
			t.Errorf("%s: a workspace-write command reached the session's socket: %s", b, out)
		}
		if out := dialFrom(t, b, p, own); !strings.Contains(out, "connected") {
			t.Errorf("%s: a socket in the workspace was hidden: %s", b, out)
		}
	}
}
