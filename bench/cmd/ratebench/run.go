package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
)

type setup struct {
	bin                    string
	rpm, tpm, calls, procs int
	layerOn                bool
	timeout                time.Duration
}

// proc is how one albert-code process ended.
type proc struct {
	code    int
	turns   int
	elapsed time.Duration
	err     string
}

type result struct {
	setup
	wall              time.Duration
	served, tooMany   int
	tokens            int64
	runs              []proc
	minRate, minToken time.Duration
	// burst is the bound of a client that fills each 60 s window at once, which
	// the minimum spacing of 60/rpm + 0.05 s rules out by design.
	burst time.Duration
}

const model = "bench/model"

// responder has the agent read README.md until the request carries calls-1 tool
// results, then answer: every process makes exactly calls model calls when none
// fails.
func responder(calls int) fakealbert.Responder {
	return func(req fakealbert.ChatRequest) fakealbert.Answer {
		results := 0
		for _, m := range req.Messages {
			if m.Role == "tool" {
				results++
			}
		}
		if results < calls-1 {
			return fakealbert.Answer{ToolCalls: []fakealbert.ToolCall{{Name: "read", Arguments: `{"path":"README.md"}`}}}
		}
		return fakealbert.Answer{Text: "done"}
	}
}

func runMode(ctx context.Context, s setup) (result, error) {
	var mu sync.Mutex
	var tokens int64
	inner := responder(s.calls)
	srv, err := fakealbert.Start(fakealbert.Options{APIKey: "bench-key",
		Models: []fakealbert.Model{{ID: model, Limits: fakealbert.Limits{RPM: s.rpm, TPM: s.tpm}}},
		Responder: func(req fakealbert.ChatRequest) fakealbert.Answer {
			mu.Lock()
			tokens += int64(fakealbert.InputTokens(req))
			mu.Unlock()
			return inner(req)
		}})
	if err != nil {
		return result{}, err
	}
	defer srv.Close()
	root, err := os.MkdirTemp("", "ratebench-")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(root)
	home, xdg, work := filepath.Join(root, "home"), filepath.Join(root, "xdg"), filepath.Join(root, "work")
	cfg := fmt.Sprintf(`model = "bench"

[[providers]]
name = "albert"
base_url = %q

[[models]]
name = "bench"
provider = "albert"
wire_name = %q

[rate_limits.models.bench]
rpm = %d
tpm = %d
`, srv.URL(), model, s.rpm, s.tpm)
	for path, content := range map[string]string{filepath.Join(xdg, "albert-code", "config.toml"): cfg, filepath.Join(work, "README.md"): "A small file the agent reads.\n"} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return result{}, err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return result{}, err
		}
	}
	env := []string{"HOME=" + root, "ALBERT_CODE_HOME=" + home, "XDG_CONFIG_HOME=" + xdg, "ALBERT_API_KEY=bench-key",
		"PATH=" + os.Getenv("PATH"), fmt.Sprintf("ALBERT_CODE_RATE_LIMITS=%t", s.layerOn)}

	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	r := result{setup: s, runs: make([]proc, s.procs)}
	var wg sync.WaitGroup
	start := time.Now()
	for i := range s.procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.runs[i] = runOne(ctx, s.bin, env, work)
		}()
	}
	wg.Wait()
	r.wall = time.Since(start)
	st := srv.Stats()
	r.served, r.tooMany, r.tokens = st.Served, st.TooMany, tokens
	total := s.calls * s.procs
	// The fastest a client spacing its calls can go: the last call (total-1)·60/rpm
	// after the first at the sustained request rate, and
	// the tokens the calls carried at the sustained token rate.
	r.minRate = time.Duration(total-1) * time.Minute / time.Duration(s.rpm)
	r.burst = time.Duration((total-1)/s.rpm) * time.Minute
	r.minToken = time.Duration(float64(tokens) / float64(s.tpm) * float64(time.Minute))
	return r, ctx.Err()
}

func runOne(ctx context.Context, bin string, env []string, work string) proc {
	cmd := exec.CommandContext(ctx, bin, "-p", "--output", "json", "read README.md forty times")
	cmd.Dir, cmd.Env, cmd.Stdin = work, env, bytes.NewReader(nil)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	p := proc{elapsed: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		p.code = ee.ExitCode()
	} else if err != nil {
		p.code, p.err = -1, err.Error()
	}
	var res struct {
		Turns int    `json:"turns"`
		Error string `json:"error"`
	}
	if json.Unmarshal(out.Bytes(), &res) == nil {
		p.turns = res.Turns
		if p.err == "" {
			p.err = res.Error
		}
	} else if p.err == "" {
		p.err = lastLine(errOut.String())
	}
	return p
}

func lastLine(s string) string {
	b := bytes.TrimSpace([]byte(s))
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	return string(b)
}

func (r result) print(w io.Writer) {
	mode := "layer on"
	if !r.layerOn {
		mode = "layer off (ALBERT_CODE_RATE_LIMITS=false)"
	}
	floor := max(r.minRate, r.minToken)
	fmt.Fprintf(w, "## %s\n", mode)
	fmt.Fprintf(w, "429s sent by the fake:      %d\n", r.tooMany)
	fmt.Fprintf(w, "calls served:               %d of %d\n", r.served, r.calls*r.procs)
	fmt.Fprintf(w, "input tokens served:        %d\n", r.tokens)
	fmt.Fprintf(w, "wall time:                  %.1f s\n", r.wall.Seconds())
	fmt.Fprintf(w, "minimum set by the limits:  %.1f s (requests %.1f s, tokens %.1f s)\n", floor.Seconds(), r.minRate.Seconds(), r.minToken.Seconds())
	fmt.Fprintf(w, "wall / minimum:             %.3f\n", r.wall.Seconds()/floor.Seconds())
	fmt.Fprintf(w, "burst bound (not reachable with the spacing rule): %.1f s\n", r.burst.Seconds())
	for i, p := range r.runs {
		status := "ok"
		if p.code != 0 {
			status = fmt.Sprintf("exit %d: %s", p.code, p.err)
		}
		fmt.Fprintf(w, "  process %d: %d turns in %.1f s, %s\n", i+1, p.turns, p.elapsed.Seconds(), status)
	}
	fmt.Fprintln(w)
}
