package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
)

// freshAlbertUser runs the binary with no configuration file at all, the shipped
// default model on a fake Albert that serves it under its real id.
type freshAlbertUser struct {
	t    *testing.T
	srv  *fakealbert.Server
	work string
	env  []string
	mu   sync.Mutex
	at   []time.Time // when each chat request arrived
}

const shippedDefault = "mistralai/Mistral-Medium-3.5-128B"

func newFreshAlbertUser(t *testing.T) *freshAlbertUser {
	t.Helper()
	u := &freshAlbertUser{t: t}
	srv, err := fakealbert.Start(fakealbert.Options{APIKey: "test-key", User: fakealbert.User{ID: 7, Name: "Ada"},
		Models: []fakealbert.Model{{ID: shippedDefault, RouterID: 1}},
		Responder: func(fakealbert.ChatRequest) fakealbert.Answer {
			u.mu.Lock()
			u.at = append(u.at, time.Now())
			u.mu.Unlock()
			return fakealbert.Answer{Text: "ok"}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	root := t.TempDir()
	u.srv, u.work = srv, filepath.Join(root, "work")
	if err := os.MkdirAll(u.work, 0o755); err != nil {
		t.Fatal(err)
	}
	u.env = append([]string{"HOME=" + filepath.Join(root, "home"), "ALBERT_CODE_HOME=" + filepath.Join(root, "home", ".albert-code"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "ALBERT_API_KEY=test-key", "ALBERT_CODE_BASE_URL=" + srv.URL(),
		"PATH=" + os.Getenv("PATH")}, goEnv...)
	return u
}

func (u *freshAlbertUser) run(args ...string) result {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = u.work, u.env, strings.NewReader("")
	return runToEnd(u.t, ctx, cmd, args)
}

// With no configuration, the shipped model's limits are known: two runs in a row
// are spaced by the 50 rpm debounce (1.25 s), and /quota has numbers.
func TestAFreshConfigThrottlesTheShippedModelAndShowsItsQuota(t *testing.T) {
	t.Parallel()
	u := newFreshAlbertUser(t)
	for range 2 {
		if r := u.run("-p", "say hello"); r.code != 0 {
			t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
		}
	}
	u.mu.Lock()
	at := u.at
	u.mu.Unlock()
	if len(at) != 2 || at[1].Sub(at[0]) < 1200*time.Millisecond {
		t.Fatalf("requests at %v, want two at least 1.25 s apart (60/50 rpm + 50 ms)", at)
	}
	r := u.run("quota")
	if r.code != 0 || !strings.Contains(r.stdout, shippedDefault) || !strings.Contains(r.stdout, "1,000") {
		t.Fatalf("exit %d, quota:\n%s\nstderr:\n%s\nwant the shipped model with its 1,000 requests a day", r.code, r.stdout, r.stderr)
	}
}

// With no configuration, a day's usage at 80 % and 95 % of the shipped model's
// assumed quota is a warning, then a critical line, at start-up.
func TestAFreshConfigWarnsAt80And95PercentOfTheDailyQuota(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		requests int
		want     string
	}{{810, "warning:"}, {960, "critical:"}} {
		u := newFreshAlbertUser(t)
		now := time.Now().UTC()
		start := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).Unix()
		for i := range tc.requests {
			u.srv.AddUsage(shippedDefault, start+int64(i%60), 10)
		}
		r := u.run("-p", "say hello")
		if r.code != 0 || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, shippedDefault) {
			t.Errorf("%d requests used: exit %d, stderr:\n%s\nwant a %q line naming the model", tc.requests, r.code, r.stderr, tc.want)
		}
	}
}
