package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// Why a launcher: Go starts children with vfork (CLONE_VM), and Linux's exec
// folds the old mm's high-water RSS, the parent's, into the child's ru_maxrss.
// A child of the benchmark driver would thus report at least the driver's
// peak RSS (measured: /bin/true "used" 200 MiB under a 200 MiB parent). So
// each contestant is started by this binary in -launch mode, a fresh small
// process, which measures its child and reports on fd 3. The floor of the RSS
// figure is then the launcher's own RSS, shown by the floor row.

// measurement is what the launcher reports about its child.
type measurement struct {
	Wall     time.Duration `json:"wall"`
	CPU      time.Duration `json:"cpu"`
	MaxRSS   int64         `json:"max_rss_kib"`
	ExitCode int           `json:"exit_code"`
}

// reportFD is the launcher's report pipe: the driver's cmd.ExtraFiles[0].
const reportFD = 3

// launch runs argv with the launcher's stdio and environment and reports it.
func launch(argv []string) error {
	if len(argv) == 0 {
		return errors.New("-launch: no command")
	}
	// Keep the report pipe out of the agent and its bash children, so the
	// driver sees EOF when this launcher exits, whatever they leave running.
	syscall.CloseOnExec(reportFD)
	report := os.NewFile(reportFD, "report")
	// Pdeathsig fires when the thread that forked exits, so pin it: if the
	// driver kills this launcher on timeout, the agent dies with it.
	runtime.LockOSThread()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}

	start := time.Now()
	err := cmd.Run()
	m := measurement{Wall: time.Since(start)}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return fmt.Errorf("launch %s: %w", argv[0], err)
	}
	m.ExitCode = cmd.ProcessState.ExitCode()
	m.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.MaxRSS = ru.Maxrss // KiB on Linux
	}
	if err := json.NewEncoder(report).Encode(m); err != nil {
		return fmt.Errorf("write launch report: %w", err)
	}
	return report.Close()
}
