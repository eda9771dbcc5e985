// Package launch is the measuring side of the benchmarks' launcher role. Go
// starts children with vfork (CLONE_VM), and Linux's execve folds the old address
// space's high-water RSS, the parent's, into the child's ru_maxrss: a command
// started by a benchmark driver would report at least the driver's peak
// (measured: /bin/true "used" 200 MiB under a 200 MiB parent). So each measured
// command is started by a fresh, small process in the launcher role, which runs
// it, measures it, and reports on ReportFD. The launcher's own RSS is then the
// lowest figure an RSS column can show.
package launch

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

// Measurement is what the launcher reports about its child. CPU and MaxRSS
// include the children the command reaped: wait4 folds them in.
type Measurement struct {
	Wall     time.Duration `json:"wall"`
	CPU      time.Duration `json:"cpu"`
	MaxRSS   int64         `json:"max_rss_kib"`
	ExitCode int           `json:"exit_code"`
}

// ReportFD is the report pipe: the driver's cmd.ExtraFiles[0].
const ReportFD = 3

// Child runs argv with stdin, the launcher's stdout, stderr, environment and
// directory, and writes its Measurement on ReportFD.
func Child(argv []string, stdin *os.File) error {
	if len(argv) == 0 {
		return errors.New("launch: no command")
	}
	// Keep the report pipe out of the command and what it starts, so the driver
	// sees EOF when this launcher exits, whatever they leave running.
	syscall.CloseOnExec(ReportFD)
	report := os.NewFile(ReportFD, "report")
	// Pdeathsig fires when the thread that forked exits, so pin it: a launcher
	// the driver kills on timeout takes its command down.
	runtime.LockOSThread()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}

	start := time.Now()
	err := cmd.Run()
	m := Measurement{Wall: time.Since(start)}
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
