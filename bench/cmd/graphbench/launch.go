package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// Why a launcher: Go starts children with vfork (CLONE_VM), and Linux's execve
// folds the old address space's high-water RSS, the parent's, into the child's
// ru_maxrss. This driver holds stores and samples in memory, so a child started
// directly would report at least the driver's peak. Each measured command is
// therefore started by a fresh, small graphbench process in the launch role,
// which waits for it and reports on fd 3. The launcher's own RSS, 12.4 MiB
// (measured with /bin/true as the command), is the lowest figure the RSS
// columns can show.

// measurement is what the launcher reports about its child. CPU and MaxRSS
// include the children the command reaped (the go command that albert-code
// runs to load Go packages): wait4 folds them in.
type measurement struct {
	Wall     time.Duration `json:"wall"`
	CPU      time.Duration `json:"cpu"`
	MaxRSS   int64         `json:"max_rss_kib"`
	ExitCode int           `json:"exit_code"`
}

// reportFD is the launcher's report pipe: the driver's cmd.ExtraFiles[0].
const reportFD = 3

// launch runs argv with the launcher's stdio, environment and directory, and
// writes its measurement on reportFD.
func launch(argv []string) error {
	if len(argv) == 0 {
		return errors.New("launch: no command")
	}
	// The measured command must not inherit the report pipe, or the driver would
	// wait for EOF as long as anything it started lives.
	syscall.CloseOnExec(reportFD)
	report := os.NewFile(reportFD, "report")
	// Pdeathsig is tied to the forking thread: pin it, so that a launcher killed
	// on timeout takes its command down.
	runtime.LockOSThread()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, os.Stdout, os.Stderr
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

// launcher starts measured commands through self in the launch role.
type launcher struct {
	self    string
	timeout time.Duration
}

// run measures argv run in dir. It returns the command's stdout; a non-zero exit
// is an error that carries the end of its stderr.
func (l launcher) run(ctx context.Context, dir string, argv ...string) (measurement, []byte, error) {
	var m measurement
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	r, w, err := os.Pipe()
	if err != nil {
		return m, nil, err
	}
	defer r.Close()
	cmd := exec.CommandContext(ctx, l.self, append([]string{"launch"}, argv...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		w.Close()
		return m, nil, fmt.Errorf("start launcher for %s: %w", argv[0], err)
	}
	w.Close()
	decodeErr := json.NewDecoder(r).Decode(&m)
	waitErr := cmd.Wait()
	name := strings.Join(argv, " ")
	switch {
	case ctx.Err() != nil:
		return m, nil, fmt.Errorf("%s in %s: %w after %v", name, dir, ctx.Err(), l.timeout)
	case waitErr != nil:
		return m, nil, fmt.Errorf("launcher for %s: %w: %s", name, waitErr, tail(stderr.String()))
	case decodeErr != nil:
		return m, nil, fmt.Errorf("read the launcher's report for %s: %w", name, decodeErr)
	case m.ExitCode != 0:
		return m, nil, fmt.Errorf("%s in %s exited %d: %s", name, dir, m.ExitCode, tail(stderr.String()))
	}
	return m, stdout.Bytes(), nil
}

// tail keeps the end of a command's stderr for an error message.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return s
}
