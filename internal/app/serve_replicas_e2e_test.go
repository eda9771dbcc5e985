package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/faketelegram"
	"github.com/etalab-ia/albert-code/internal/serve/pgtest"
)

// replica is one `albert-code serve` process of a cluster test.
type replica struct {
	base   string
	cmd    *exec.Cmd
	stderr *lockedBuffer
	exited <-chan error
}

func startReplica(ctx context.Context, t *testing.T, h *harness, env ...string) *replica {
	t.Helper()
	port := freePort(t)
	cmd, stderr, exited := startServe(ctx, t, h, append([]string{"ALBERT_CODE_API_MODE=1", "ALBERT_CODE_API_MODE_PORT=" + strconv.Itoa(port)}, env...)...)
	r := &replica{base: "http://127.0.0.1:" + strconv.Itoa(port), cmd: cmd, stderr: stderr, exited: exited}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		if resp, err := http.Get(r.base + "/healthz"); err == nil {
			resp.Body.Close()
			return r
		}
		select {
		case err := <-exited:
			t.Fatalf("replica exited before answering: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica never answered /healthz:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (r *replica) call(ctx context.Context, t *testing.T, method, path, token, body string) map[string]any {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, method, r.base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return out
}

// TestServeReplicasShareStateOnPostgres runs the real binary three times on one
// PostgreSQL: a run posted to one replica is read from another, a replica started
// with another token is refused naming the setting, and a replica killed with
// SIGKILL has its running run failed, with the reason, by the survivors.
func TestServeReplicasShareStateOnPostgres(t *testing.T) {
	t.Parallel()
	pg := pgtest.Start(t)
	url := pg.NewDatabase(t)
	// The first request to the model hangs (the run the killed replica holds);
	// the others answer at once.
	turns := []fakemodel.Turn{{Text: []string{"never"}, FirstByteDelay: 10 * time.Minute}}
	for range 8 {
		turns = append(turns, fakemodel.Turn{Text: []string{"done"}})
	}
	h := newHarness(t, turns...)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	const token = "cluster-token-0123456789"
	common := []string{"ALBERT_CODE_DATABASE_URL=" + url, "ALBERT_CODE_API_MODE_TOKEN=" + token}
	a := startReplica(ctx, t, h, common...)
	b := startReplica(ctx, t, h, common...)

	odd := h.command(ctx, "serve")
	odd.Env = append(odd.Env, "ALBERT_CODE_API_MODE=1", "ALBERT_CODE_API_MODE_HOST=127.0.0.1", "ALBERT_CODE_API_MODE_PORT="+strconv.Itoa(freePort(t)),
		"ALBERT_CODE_WORKSPACE="+filepath.Join(h.work, "root"),
		"ALBERT_CODE_DATABASE_URL="+url, "ALBERT_CODE_API_MODE_TOKEN=another-token-0123456789")
	out, err := odd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "ALBERT_CODE_API_MODE_TOKEN differs") || strings.Contains(string(out), "another-token") {
		t.Fatalf("a replica with another token: %v\n%s", err, out)
	}

	hung := b.call(ctx, t, "POST", "/run", token, `{"prompt":"hang","workspace":"proj","async":true}`)
	id, _ := hung["runId"].(string)
	if id == "" {
		t.Fatalf("async run: %v", hung)
	}
	waitStatus := func(want string, limit time.Duration) map[string]any {
		t.Helper()
		deadline := time.Now().Add(limit)
		for {
			got := a.call(ctx, t, "GET", "/run/result?runId="+id, token, "")
			if got["status"] == want {
				return got
			}
			if time.Now().After(deadline) {
				t.Fatalf("run %s read from another replica: %v, want %s\nB:\n%s", id, got, want, b.stderr.String())
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitStatus("running", 30*time.Second)
	if err := b.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-b.exited
	// The workspace B held is free again for A at once: its advisory lock died
	// with its connections.
	done := a.call(ctx, t, "POST", "/run", token, `{"prompt":"next","workspace":"proj"}`)
	if done["text"] != "done" {
		t.Fatalf("a run after the kill on the same workspace: %v\nA:\n%s", done, a.stderr.String())
	}
	failed := waitStatus("failed", 40*time.Second)
	if msg, _ := failed["error"].(string); !strings.Contains(msg, "stopped: no heartbeat") {
		t.Fatalf("the killed replica's run: %v, want failed naming the lost heartbeat", failed)
	}
	stopServe(t, a.cmd, a.exited, a.stderr, 40*time.Second)
}

// TestServeReplicasPollTelegramOnce: two replicas with the bot on one PostgreSQL:
// one polls and a message is answered once (the takeover after the poller's death
// is pgstore's TestOnlyOneReplicaLeadsAndAnotherTakesOverWhenItStops).
func TestServeReplicasPollTelegramOnce(t *testing.T) {
	t.Parallel()
	pg := pgtest.Start(t)
	url := pg.NewDatabase(t)
	h := newHarness(t, fakemodel.Turn{Text: []string{"first"}}, fakemodel.Turn{Text: []string{"second"}})
	api := faketelegram.Start(t, e2eBotToken)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	yaml := "allowed_chats: [1001]\n"
	p1, stop1 := startBot(ctx, t, h, api, yaml, "ALBERT_CODE_DATABASE_URL="+url)
	defer stop1()
	polling := func(p *lockedBufferProc) bool {
		return strings.Contains(p.stderr.String(), "this replica polls the bot")
	}
	deadline := time.Now().Add(30 * time.Second)
	for !polling(p1) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !polling(p1) {
		t.Fatalf("the first replica never polled:\n%s", p1.stderr.String())
	}
	p2, stop2 := startBot(ctx, t, h, api, yaml, "ALBERT_CODE_DATABASE_URL="+url)
	defer stop2()
	for !strings.Contains(p2.stderr.String(), "telegram: bot configured") && time.Now().Before(deadline.Add(30*time.Second)) {
		time.Sleep(50 * time.Millisecond)
	}
	api.SendText(1001, 5, "hello")
	if sent := waitSent(t, api, p1, 1001, 1); sent[0].Plain != "first" {
		t.Fatalf("answer: %+v", sent[0])
	}
	time.Sleep(time.Second)
	if n := len(api.Messages(1001)); n != 1 || polling(p2) {
		t.Fatalf("answers: %d (want 1); second replica polling: %v\n%s", n, polling(p2), p2.stderr.String())
	}
}
