// Command agentbench measures the start-up and overhead of `albert-code -p` on a
// 3-turn tool session against the fake model server, side by side in the same
// run with the peer agent pi (@mariozechner/pi-coding-agent) and with a "floor"
// client that does only what is irreducible. Contestants alternate so that a
// shared, noisy machine penalises them alike; see docs/benchmarks/agent-overhead.md.
//
//	go run ./bench/cmd/agentbench [-n 10] [-albert-code bench/bin/albert-code] [-pi bench/node_modules/...]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "agentbench:", err)
		os.Exit(1)
	}
}

func run() error {
	n := flag.Int("n", 10, "measured runs per contestant")
	warmup := flag.Int("warmup", 1, "unmeasured runs per contestant first, to warm the page cache")
	albertBin := flag.String("albert-code", "bench/bin/albert-code", "albert-code binary")
	baselineBin := flag.String("baseline", "bench/bin/albert-code-baseline", "albert-code binary of the commit to compare with (contestant albert-code-baseline)")
	albertEnv := flag.String("albert-env", "", "space-separated VAR=value pairs added to albert-code's environment (to measure a feature's cost)")
	piCLI := flag.String("pi", "bench/node_modules/@mariozechner/pi-coding-agent/dist/cli.js", "pi's cli.js (npm ci in bench/)")
	node := flag.String("node", "node", "node binary that runs pi")
	only := flag.String("only", "albert-code,pi,floor", "comma-separated contestants to run")
	// Judgement: pi needs several seconds on a loaded 2-core machine; two
	// minutes only catches a hang.
	timeout := flag.Duration("timeout", 2*time.Minute, "limit for one run")
	floorURL := flag.String("floor-client", "", "internal: act as the floor client against this base URL")
	launchMode := flag.Bool("launch", false, "internal: run the arguments as a measured child, report on fd 3")
	flag.Parse()

	switch {
	case *launchMode:
		return launch(flag.Args())
	case *floorURL != "":
		return runFloor(*floorURL, os.Stdout)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own binary for -launch: %w", err)
	}
	contestants, err := pick(*only, self, *albertBin, *baselineBin, *albertEnv, *node, *piCLI)
	if err != nil {
		return err
	}
	script, err := loadSession()
	if err != nil {
		return err
	}
	root, err := os.MkdirTemp("", "agentbench-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(root) }()
	r := runner{self: self, script: script, root: root, timeout: *timeout}

	describeMachine(*node)
	samples := map[string][]sample{}
	for i := range *warmup + *n {
		// Rotate the order every round so no contestant always runs right
		// after another one's burst of page-cache or CPU activity.
		for j := range contestants {
			c := contestants[(i+j)%len(contestants)]
			s, err := r.runOnce(ctx, c)
			if err != nil {
				return err
			}
			label := "warm-up"
			if i >= *warmup {
				samples[c.name] = append(samples[c.name], s)
				label = fmt.Sprintf("run %d/%d", i-*warmup+1, *n)
			}
			fmt.Fprintf(os.Stderr, "%-11s %-9s wall %7.1f ms  overhead %7.1f ms  cpu %7.1f ms  rss %6.1f MiB\n",
				c.name, label, ms(s.wall), ms(s.overhead), ms(s.cpu), float64(s.rssKiB)/1024)
		}
	}
	var sums []summary
	for _, c := range contestants {
		sums = append(sums, summarize(c.name, samples[c.name]))
	}
	fmt.Println()
	report(os.Stdout, sums, script.TotalDelay())
	fmt.Printf("\nload average after the run: %s\n", loadAverage())
	return nil
}

// pick resolves the contestants named in only, with absolute paths, since each
// run's working directory is its own workspace.
func pick(only, self, albertBin, baselineBin, albertEnv, node, piCLI string) ([]contestant, error) {
	var cs []contestant
	for name := range strings.SplitSeq(only, ",") {
		switch strings.TrimSpace(name) {
		case "albert-code":
			bin, err := existing(albertBin)
			if err != nil {
				return nil, fmt.Errorf("%w (go build -o bench/bin/albert-code ./cmd/albert-code)", err)
			}
			cs = append(cs, albertCode(bin, strings.Fields(albertEnv)))
		case "albert-code-listed":
			bin, err := existing(albertBin)
			if err != nil {
				return nil, fmt.Errorf("%w (go build -o bench/bin/albert-code ./cmd/albert-code)", err)
			}
			cs = append(cs, albertCodeListed(bin, strings.Fields(albertEnv)))
		case "albert-code-baseline":
			bin, err := existing(baselineBin)
			if err != nil {
				return nil, fmt.Errorf("%w (build the commit to compare with into -baseline)", err)
			}
			cs = append(cs, albertCodeAs("albert-code-baseline", bin, strings.Fields(albertEnv), modelName, false))
		case "pi":
			cli, err := existing(piCLI)
			if err != nil {
				return nil, fmt.Errorf("%w (cd bench && npm ci)", err)
			}
			nodeBin, err := exec.LookPath(node)
			if err != nil {
				return nil, fmt.Errorf("find node: %w", err)
			}
			cs = append(cs, pi(nodeBin, cli))
		case "floor":
			cs = append(cs, floor(self))
		default:
			return nil, fmt.Errorf("-only: unknown contestant %q (want albert-code, albert-code-listed, albert-code-baseline, pi or floor)", name)
		}
	}
	if len(cs) == 0 {
		return nil, errors.New("-only names no contestant")
	}
	return cs, nil
}

func existing(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", fmt.Errorf("contestant: %w", err)
	}
	return abs, nil
}

// describeMachine prints what a reader needs to judge the figures.
func describeMachine(node string) {
	nodeVersion := "absent"
	if out, err := exec.Command(node, "--version").Output(); err == nil {
		nodeVersion = strings.TrimSpace(string(out))
	}
	fmt.Printf("machine: %d CPUs, %s, node %s, load average before: %s\n",
		runtime.NumCPU(), runtime.Version(), nodeVersion, loadAverage())
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
