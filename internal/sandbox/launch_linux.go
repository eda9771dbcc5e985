package sandbox

/*
long albert_code_landlock_abi(void);
*/
import "C"

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// sentinel is the first argument that makes this binary act as the launcher
// (launcher_linux.c); it is checked before the Go runtime starts.
const sentinel = "__albert-code-sandbox"

// selfExe is this binary; /proc/self/exe still works when the file was replaced by
// an upgrade while the agent runs.
const selfExe = "/proc/self/exe"

// LandlockABI is the kernel's Landlock ABI version, or 0 without Landlock.
func LandlockABI() int {
	v := int(C.albert_code_landlock_abi())
	if v < 0 {
		return 0
	}
	return v
}

var (
	lifelineOnce sync.Once
	lifelineR    *os.File
	lifelineW    *os.File // never closed: its end at the process's death is the signal
	lifelineErr  error
)

// lifeline returns the read end of a pipe whose write end lives as long as this
// process: every guardian holds the read end and kills its command's tree when it
// reads end of file, whoever its parent is by then.
func lifeline() (*os.File, error) {
	lifelineOnce.Do(func() {
		lifelineR, lifelineW, lifelineErr = os.Pipe()
	})
	return lifelineR, lifelineErr
}

// wrap rewrites cmd, not yet started, to run through the launcher with the spec
// rs. The returned function releases the spec once cmd has started.
func wrap(cmd *exec.Cmd, rs []record) (func(), error) {
	if cmd.Process != nil {
		return nil, fmt.Errorf("sandbox: %s has already started", cmd.Path)
	}
	life, err := lifeline()
	if err != nil {
		return nil, fmt.Errorf("sandbox: make the lifeline pipe: %w", err)
	}
	fd, err := unix.MemfdCreate("albert-code-sandbox-spec", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("sandbox: make the spec file: %w", err)
	}
	spec := os.NewFile(uintptr(fd), "sandbox-spec")
	if _, err := spec.Write(encode(rs)); err != nil {
		spec.Close()
		return nil, fmt.Errorf("sandbox: write the spec: %w", err)
	}
	path := cmd.Path
	if cmd.Err == nil && strings.Contains(path, "/") {
		// exec.Command looks up only bare names; a missing path would otherwise be
		// reported by the launcher after the start, not by Start.
		_, cmd.Err = exec.LookPath(path)
	}
	if cmd.Err != nil {
		spec.Close()
		return nil, cmd.Err
	}
	first := 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(cmd.ExtraFiles, spec, life)
	args := []string{"albert-code-sandbox", sentinel, strconv.Itoa(first), strconv.Itoa(first + 1), path}
	cmd.Args = append(args, cmd.Args...)
	cmd.Path = selfExe
	return func() { spec.Close() }, nil
}

// pick chooses the best backend available for want.
func pick(want Backend) (Backend, string) {
	landlock := LandlockABI() >= 1
	bwrap, bwrapErr := exec.LookPath("bwrap")
	switch want {
	case BackendLandlock:
		if landlock {
			return BackendLandlock, ""
		}
		return "", "this kernel has no Landlock (Linux 5.13 or later with landlock in the lsm= list)"
	case BackendBubblewrap:
		if bwrapErr == nil {
			return BackendBubblewrap, ""
		}
		return "", "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
	case BackendAuto:
		if landlock {
			return BackendLandlock, ""
		}
		if bwrapErr == nil && bwrap != "" {
			return BackendBubblewrap, ""
		}
		return "", "this kernel has no Landlock and bubblewrap (bwrap) is not installed"
	}
	return "", fmt.Sprintf("the sandbox backend %q is not available on Linux: want landlock or bubblewrap", want)
}

// guardOnly runs cmd under the guardian alone, so its tree dies with the agent.
func guardOnly(cmd *exec.Cmd) (func(), error) {
	return wrap(cmd, nil)
}

func confine(cmd *exec.Cmd, b Backend, p Policy) (func(), error) {
	switch b {
	case BackendLandlock:
		return wrap(cmd, records(p))
	case BackendBubblewrap:
		bwrap, err := exec.LookPath("bwrap")
		if err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		cmd.Args = append(bwrapArgs(p, cmd.Dir), append([]string{"--", cmd.Path}, cmd.Args[1:]...)...)
		cmd.Args[0] = "bwrap"
		cmd.Path = bwrap
		var rs []record
		if p.TempDir != "" {
			rs = []record{{opTempDir, p.TempDir}}
		}
		return wrap(cmd, rs)
	}
	return nil, fmt.Errorf("sandbox: backend %q: %w", b, ErrUnavailable)
}
