package agentenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// recordingApprover denies every call and remembers which tools it was asked about.
type recordingApprover struct {
	mu    sync.Mutex
	asked []string
}

func (r *recordingApprover) Approve(_ context.Context, call agent.ToolEvent) (agent.Decision, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, call.Name)
	return agent.Decision{Feedback: "write it somewhere else"}, nil
}

// A face's approver reaches the agent: a call the policy asks about goes to it, and
// its feedback goes back to the model.
func TestNewRunPassesTheApproverToTheAgent(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{Name: "write", Arguments: `{"path":"a.txt","content":"x"}`}}},
		{Text: []string{"done"}},
	}})
	root := t.TempDir()
	work := filepath.Join(root, "work")
	env := map[string]string{
		"HOME": filepath.Join(root, "home"), "ALBERT_CODE_HOME": filepath.Join(root, "home", ".albert-code"),
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "ALBERT_API_KEY": "k", "ALBERT_CODE_BASE_URL": srv.URL(),
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := Load(Options{WorkDir: work, Trust: true, LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	ap := &recordingApprover{}
	run, err := e.NewRun(RunOptions{Approver: ap})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	res := run.Agent.Run(context.Background(), "write a.txt", func(agent.Event) {})
	if res.Stop != agent.StopEndTurn {
		t.Fatalf("stop = %q, err %v", res.Stop, res.Err)
	}
	if len(ap.asked) != 1 || ap.asked[0] != "write" {
		t.Fatalf("approver asked about %v, want [write]", ap.asked)
	}
	if _, err := os.Stat(filepath.Join(work, "a.txt")); !os.IsNotExist(err) {
		t.Fatalf("a denied write happened: %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Body, "write it somewhere else") {
		t.Fatal("the denial's feedback did not reach the model")
	}
}
