package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	benchlaunch "github.com/etalab-ia/albert-code/bench/internal/launch"
)

// Each measured command is started by a fresh graphbench process in the launch
// role (package launch says why); the launcher's own RSS, 12.4 MiB (measured with
// /bin/true as the command), is the lowest figure the RSS columns can show.

// measurement is what the launcher reports about its child.
type measurement = benchlaunch.Measurement

// launch runs argv with the launcher's stdout, stderr, environment and directory
// (no stdin), and reports on the pipe.
func launch(argv []string) error { return benchlaunch.Child(argv, nil) }

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
