// Package adaptertest holds what the CLI adapters' tests share: their transcripts,
// stream helpers, and a runner with short limits.
package adaptertest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
)

// testdata is internal/serve/adapter/testdata, wherever the test runs from.
func testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// Testdata is the path of a file in the adapters' testdata folder.
func Testdata(name string) string { return filepath.Join(testdata(), name) }

// The session ids of the claude, pi and codex transcripts.
const (
	CodexThread   = "0199a213-81c0-7800-8aa1-bbab2a035a53"
	ClaudeSession = "8f2c3a1e-5b7d-4c9e-a1f0-2d3e4b5c6a7f"
	PiSession     = "ccd569e0-4e1b-4c7d-a981-637ed4107310"
)

// Transcript reads a CLI's recorded output from the adapter's testdata folder.
func Transcript(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testdata(), name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// StreamAll streams out through a's stream parser, line by line.
func StreamAll(a cli.Adapter, req *backend.Request, out []byte) []backend.Event {
	s := cli.NewStream(a, req)
	var evs []backend.Event
	for line := range bytes.Lines(out) {
		evs = append(evs, s.Line(bytes.TrimRight(line, "\n"))...)
	}
	return evs
}

// Deltas lists the text of the delta events.
func Deltas(evs []backend.Event) []string {
	var out []string
	for _, e := range evs {
		if e.Kind == backend.EventDelta {
			out = append(out, e.Text)
		}
	}
	return out
}

// Run runs req on a through a runner with short limits, collecting the events.
func Run(t *testing.T, a backend.Backend, req backend.Request, opts runner.Options) (backend.Result, []backend.Event, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if opts.Grace == 0 {
		opts.Grace = time.Second
	}
	var evs []backend.Event
	res, err := runner.New(opts).Run(ctx, a, req, func(e backend.Event) { evs = append(evs, e) })
	return res, evs, err
}

// JoinDeltas is the text the delta events stream.
func JoinDeltas(evs []backend.Event) string {
	var b strings.Builder
	for _, e := range evs {
		if e.Kind == backend.EventDelta {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// Stop checks the run ended with exactly one stop event, last, and returns it.
func Stop(t *testing.T, evs []backend.Event) backend.Event {
	t.Helper()
	n := 0
	for _, e := range evs {
		if e.Kind == backend.EventStop {
			n++
		}
	}
	if n != 1 || len(evs) == 0 || evs[len(evs)-1].Kind != backend.EventStop {
		t.Fatalf("want exactly one stop event, last; got %d in %+v", n, evs)
	}
	return evs[len(evs)-1]
}

// Zombie reports whether pid is gone or a zombie.
func Zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && len(s) > i+2 && (s[i+2] == 'Z' || s[i+2] == 'X')
}
