// Command sandboxbench measures what the OS sandbox adds to one bash call: the same
// command run through the bash tool's RunShell with the sandbox off, in read-only
// and in workspace-write, interleaved call by call so the machine's noise falls on
// every mode alike. The peer is the same call with the sandbox off (which still
// starts the command under the guardian), and plain exec of bash without any of it.
// With -clone, each call is a git clone whose .git the after-command check vets.
//
//	go run ./bench/cmd/sandboxbench -n 200
//	go run ./bench/cmd/sandboxbench -n 60 -clone 2000
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/sensitive"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

func main() {
	n := flag.Int("n", 200, "calls per mode")
	command := flag.String("command", "true", "the shell command each call runs")
	workspace := flag.String("workspace", "", "run in this folder (a copy of a large repository: the after-command check walks it) instead of an empty one")
	clone := flag.Int("clone", 0, "each call clones (file://, no network) a repository of this many files into the workspace, which the after-command check vets and keeps; removed between calls, untimed")
	flag.Parse()
	ws := *workspace
	if ws == "" {
		tmp, err := os.MkdirTemp("", "sandboxbench-")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(tmp)
		os.MkdirAll(filepath.Join(tmp, ".git", "hooks"), 0o755)
		os.WriteFile(filepath.Join(tmp, ".git", "config"), []byte("[core]\n"), 0o644)
		ws = tmp
	}

	if *clone > 0 {
		bare, cleanup, err := bareRepo(*clone)
		if err != nil {
			fail(err)
		}
		defer cleanup()
		*command = "GIT_CONFIG_GLOBAL=/dev/null git clone -q file://" + bare + " clone"
	}
	on := sandbox.New(sandbox.Config{Mode: sandbox.WorkspaceWrite, WorkDir: ws, Secrets: sensitive.DefaultSecrets()})
	off := sandbox.New(sandbox.Config{Mode: sandbox.Off, WorkDir: ws})
	defer on.Close()
	defer off.Close()
	if !on.Status().Active {
		fail(fmt.Errorf("no sandbox here: %s", on.Status().Reason))
	}
	type leg struct {
		name string
		run  func() error
	}
	shellCall := func(sb *sandbox.Sandbox, mode sandbox.Mode) func() error {
		env := builtin.Env{WorkDir: ws, Sandbox: sb}
		ctx := sandbox.WithMode(context.Background(), mode)
		return func() error {
			r, err := builtin.RunShell(ctx, env, *command, time.Minute, nil)
			if err == nil && r.Status != "" {
				err = fmt.Errorf("%s: %s", r.Status, r.Output)
			}
			return err
		}
	}
	legs := []leg{
		{"plain exec of bash (no tool)", func() error {
			c := exec.Command("bash", "-c", *command)
			c.Dir = ws
			return c.Run()
		}},
		{"sandbox off (guardian only)", shellCall(off, sandbox.Off)},
		{"read-only", shellCall(on, sandbox.ReadOnly)},
		{"workspace-write", shellCall(on, sandbox.WorkspaceWrite)},
	}
	if *clone > 0 {
		legs = slices.Delete(legs, 2, 3) // read-only cannot write the clone
	}
	times := make([][]time.Duration, len(legs))
	for i := 0; i < *n; i++ {
		for j, l := range legs {
			start := time.Now()
			if err := l.run(); err != nil {
				fail(fmt.Errorf("%s: %w", l.name, err))
			}
			times[j] = append(times[j], time.Since(start))
			if *clone > 0 {
				if _, err := os.Stat(filepath.Join(ws, "clone", ".git", "HEAD")); err != nil {
					fail(fmt.Errorf("%s: the clone lost its .git: %w", l.name, err))
				}
				os.RemoveAll(filepath.Join(ws, "clone"))
			}
		}
	}
	fmt.Printf("%d calls of %q per mode, interleaved; backend %s, Landlock ABI %d\n\n", *n, *command, on.Status().Backend, sandbox.LandlockABI())
	fmt.Println("| mode | median | p90 | median minus sandbox off |")
	fmt.Println("|---|---|---|---|")
	base := median(times[1])
	for j, l := range legs {
		m := median(times[j])
		fmt.Printf("| %s | %.2f ms | %.2f ms | %+.2f ms |\n", l.name, ms(m), ms(pct(times[j], 0.9)), ms(m-base))
	}
}

func median(d []time.Duration) time.Duration { return pct(d, 0.5) }

func pct(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(p*float64(len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sandboxbench:", err)
	os.Exit(1)
}
