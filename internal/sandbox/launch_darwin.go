package sandbox

import (
	"fmt"
	"os/exec"
)

func pick(want Backend) (Backend, string) {
	if want != BackendAuto && want != BackendSeatbelt {
		return "", fmt.Sprintf("the sandbox backend %q is not available on macOS: want seatbelt", want)
	}
	if _, err := exec.LookPath("sandbox-exec"); err != nil {
		return "", "sandbox-exec is not on PATH"
	}
	return BackendSeatbelt, ""
}

// guardOnly has no guardian on macOS: the command's process group is what a stop
// kills.
func guardOnly(cmd *exec.Cmd) (func(), error) { return func() {}, nil }

func confine(cmd *exec.Cmd, b Backend, p Policy) (func(), error) {
	se, err := exec.LookPath("sandbox-exec")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	cmd.Args = append([]string{"sandbox-exec", "-p", seatbeltProfile(p), "--", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = se
	return func() {}, nil
}
