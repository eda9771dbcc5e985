package sandbox

import (
	"bufio"
	"os"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// netUnix lists the Unix sockets bound in this network namespace.
const netUnix = "/proc/net/unix"

// xSockets is the X server's folder of sockets, root's or the user's.
const xSockets = "/tmp/.X11-unix"

// sessionSockets returns the listening Unix sockets, by path, that a command must
// not reach: those of the user's own session (they belong to this user:
// ssh-agent, gpg-agent, the session D-Bus, systemd --user, tmux, screen, Wayland,
// PipeWire) and the X server's, outside the writable roots. Landlock does not
// govern connect() on a path, and through them a command acts outside the
// sandbox: systemd-run --user runs any command unconfined, tmux send-keys types
// into the user's shell, ssh-agent signs with the user's keys. Sockets of other
// users (the Docker daemon's, PostgreSQL's) are theirs to guard and stay reachable.
func sessionSockets(listing string, writable []string) []string {
	f, err := os.Open(listing)
	if err != nil {
		return nil
	}
	defer f.Close()
	uid := os.Getuid()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 8 || !strings.HasPrefix(fields[7], "/") {
			continue // a header, an unnamed or an abstract socket
		}
		p := fields[7]
		if slices.ContainsFunc(writable, func(w string) bool { return w != "" && sensitive.Within(w, p) }) {
			continue
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSocket == 0 {
			continue
		}
		if owner(fi) == uid || sensitive.Within(xSockets, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
