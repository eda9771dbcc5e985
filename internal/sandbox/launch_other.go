//go:build !linux && !darwin

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
)

func pick(Backend) (Backend, string) {
	return "", fmt.Sprintf("no OS sandbox is implemented for %s", runtime.GOOS)
}

func guardOnly(cmd *exec.Cmd) (func(), error) { return func() {}, nil }

func confine(cmd *exec.Cmd, b Backend, p Policy) (func(), error) {
	return nil, fmt.Errorf("sandbox: backend %q: %w", b, ErrUnavailable)
}
