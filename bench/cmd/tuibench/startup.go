package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// benchStartup starts the binary n times (after one warm-up) in a 120x40
// pseudo-terminal with a trusted, configured fresh home.
func benchStartup(bin string, n int) error {
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("%w: build it with go build -o %s ./cmd/albert-code", err, bin)
	}
	srv, err := fakemodel.Start(fakemodel.Script{})
	if err != nil {
		return err
	}
	defer srv.Close()
	var floor, painted, ready []time.Duration
	for i := 0; i <= n; i++ {
		start := time.Now()
		if err := exec.Command(bin, "--version").Run(); err != nil {
			return err
		}
		if i > 0 {
			floor = append(floor, time.Since(start))
		}
	}
	line("process floor: albert-code --version", floor)
	for i := 0; i <= n; i++ {
		p, r, err := startOnce(bin, srv.URL())
		if err != nil {
			return fmt.Errorf("run %d: %w", i+1, err)
		}
		if i > 0 { // the first run warms the page cache
			painted, ready = append(painted, p), append(ready, r)
		}
	}
	line("start → first painted screen", painted)
	line("start → ready input", ready)
	return nil
}

func startOnce(bin, url string) (painted, ready time.Duration, err error) {
	root, err := os.MkdirTemp("", "tuibench-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(root)
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return 0, 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--trust")
	cmd.Dir = work
	cmd.Env = []string{"HOME=" + root, "ALBERT_CODE_HOME=" + filepath.Join(root, ".albert-code"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "ALBERT_API_KEY=k", "ALBERT_CODE_BASE_URL=" + url,
		"TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}
	// The emulator answers the program's queries through a pipe that must be
	// drained. It is not closed: vt's Close races with a pending Read.
	emu := vt.NewSafeEmulator(120, 40)
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		f.Close()
	}()
	go func() { _, _ = io.Copy(f, emu) }()
	buf := make([]byte, 64*1024)
	for {
		k, rerr := f.Read(buf)
		if k > 0 {
			_, _ = emu.Write(buf[:k])
			screen := ansi.Strip(emu.Render())
			if painted == 0 && strings.TrimSpace(screen) != "" {
				painted = time.Since(start)
			}
			// The footer names the model once the session is open, and the status
			// line then offers the commands: the prompt takes keys.
			if strings.Contains(screen, "/help for commands") && strings.Contains(screen, "mistral-medium") {
				return painted, time.Since(start), nil
			}
		}
		if rerr != nil {
			return 0, 0, fmt.Errorf("the UI never became ready: %v; screen:\n%s", rerr, ansi.Strip(emu.Render()))
		}
	}
}
