package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// sample is one measured run.
type sample struct {
	wall     time.Duration
	overhead time.Duration // wall minus the script's own delays
	cpu      time.Duration // user+system of the process and the children it reaped (bash)
	rssKiB   int64         // peak RSS of the process, or of a reaped child if larger
	other    int           // requests besides the chat turns
}

// runner plays the session; its fields are fixed for a benchmark.
type runner struct {
	self    string // this binary, for -launch
	script  fakemodel.Script
	root    string // parent of every run's directory
	timeout time.Duration
}

// runOnce plays the session once with c against a fresh fake in a fresh
// workspace. On failure the run's directory is kept and named.
func (r runner) runOnce(ctx context.Context, c contestant) (sample, error) {
	dir, err := os.MkdirTemp(r.root, c.name+"-")
	if err != nil {
		return sample{}, fmt.Errorf("make run dir: %w", err)
	}
	s, err := r.play(ctx, c, dir)
	if err != nil {
		return s, fmt.Errorf("%s (kept %s): %w", c.name, dir, err)
	}
	return s, os.RemoveAll(dir)
}

func (r runner) play(ctx context.Context, c contestant, dir string) (sample, error) {
	home, work, err := newWorkspace(dir)
	if err != nil {
		return sample{}, err
	}
	srv, err := fakemodel.Start(r.script)
	if err != nil {
		return sample{}, err
	}
	defer func() { _ = srv.Close() }()
	prog, err := c.command(srv.URL(), home)
	if err != nil {
		return sample{}, err
	}

	m, stdout, err := r.launch(ctx, prog, work)
	if err != nil {
		return sample{}, err
	}
	s := sample{wall: m.Wall, overhead: m.Wall - r.script.TotalDelay(), cpu: m.CPU, rssKiB: m.MaxRSS}
	text, err := c.answer(stdout)
	if err != nil {
		return s, fmt.Errorf("read answer: %w; stdout: %s", err, tail(string(stdout)))
	}
	if !strings.Contains(text, finalText) {
		return s, fmt.Errorf("answer %q lacks %q", tail(text), finalText)
	}
	if s.other, err = checkRequests(srv.Requests(), len(r.script.Turns)); err != nil {
		return s, err
	}
	return s, nil
}

// launch runs prog in work through this binary's -launch mode (see launch.go)
// and returns the launcher's measurement and the program's stdout.
func (r runner) launch(ctx context.Context, prog program, work string) (measurement, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	pr, pw, err := os.Pipe()
	if err != nil {
		return measurement{}, nil, fmt.Errorf("report pipe: %w", err)
	}
	defer func() { _ = pr.Close() }()
	cmd := exec.CommandContext(ctx, r.self, append([]string{"-launch", "--"}, prog.argv...)...)
	var stdout, stderr bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = work, prog.env, &stdout, &stderr
	cmd.ExtraFiles = []*os.File{pw} // fd 3 in the launcher
	// Judgement: long enough for any grandchild to release the pipes, short
	// enough that a stuck one cannot stall the benchmark.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		_ = pw.Close()
		return measurement{}, nil, fmt.Errorf("start launcher: %w", err)
	}
	_ = pw.Close() // only the launcher writes now, so EOF comes when it exits
	report, readErr := io.ReadAll(pr)
	if err := cmd.Wait(); err != nil {
		return measurement{}, nil, fmt.Errorf("launch %s: %w; stderr: %s", prog.argv[0], err, tail(stderr.String()))
	}
	var m measurement
	if readErr != nil {
		return m, nil, fmt.Errorf("read launch report: %w", readErr)
	}
	if err := json.Unmarshal(report, &m); err != nil {
		return m, nil, fmt.Errorf("decode launch report %q: %w", report, err)
	}
	if m.ExitCode != 0 {
		return m, nil, fmt.Errorf("%s exited %d; stderr: %s", prog.argv[0], m.ExitCode, tail(stderr.String()))
	}
	return m, stdout.Bytes(), nil
}

// tail keeps the end of long output, where errors usually are.
func tail(s string) string {
	const keep = 2000 // judgement: a stack trace's last frames
	s = strings.TrimSpace(s)
	if len(s) > keep {
		return "..." + s[len(s)-keep:]
	}
	return s
}
