package agentenv

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

const deploySkill = `---
name: deploy
description: Ship the release notes.
allowed-tools: Write, Bash(make release:*), mcp__nowhere__thing
---
Write NOTES.md, then stop.
`

// approvals records the calls a person was asked about and allows each once.
type approvals struct {
	mu  sync.Mutex
	ids []string
}

func (a *approvals) Approve(_ context.Context, call agent.ToolEvent) (agent.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ids = append(a.ids, call.ID)
	return agent.Decision{Allow: true}, nil
}

func (a *approvals) asked() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.ids)
}

func writeCall(id, path string) fakemodel.Turn {
	return fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: id, Name: "write", Arguments: `{"path":"` + path + `","content":"x\n"}`}}}
}

func bashCall(id, command string) fakemodel.Turn {
	return fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: id, Name: "bash", Arguments: `{"command":"` + command + `"}`}}}
}

// A tool a skill lists in allowed-tools is asked about before the skill loads and
// runs without asking after, in this run and in a resumed one; a deny rule still
// refuses it; a Bash(…) entry approves the commands it names and no other.
func TestSkillAllowedToolsArePreApprovedOnceLoaded(t *testing.T) {
	x := newExtEnv(t, "[tools.write]\ndeny = [\"secret/**\"]\n", fakemodel.Script{Turns: []fakemodel.Turn{
		writeCall("w1", "before.md"),
		{ToolCalls: []fakemodel.ToolCall{{ID: "s1", Name: "skill", Arguments: `{"name":"deploy"}`}}},
		writeCall("w2", "NOTES.md"),
		writeCall("w3", "secret/key.md"),
		bashCall("b1", "make release VERSION=1"),
		bashCall("b2", "make release && make clean"),
		{Text: []string{"shipped"}},
		writeCall("w4", "again.md"),
		bashCall("b3", "make release"),
		{Text: []string{"again"}},
	}})
	writeFile(t, filepath.Join(x.work, ".albert-code", "skills", "deploy", "SKILL.md"), deploySkill)
	writeFile(t, filepath.Join(x.work, "Makefile"), "release:\n\t@echo released\nclean:\n\t@echo cleaned\n")
	e := x.load(t, true)
	ask := &approvals{}
	run, err := e.NewRun(RunOptions{Approver: ask})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, run, "ship it")
	id := run.SessionID
	run.Close()
	if got := ask.asked(); !slices.Equal(got, []string{"w1", "b2"}) {
		t.Errorf("asked about %v, want w1 (before the skill) and b2 (a command the skill does not name) only", got)
	}
	reqs := x.srv.Requests()
	if body := reqs[2].Body; !strings.Contains(body, "Pre-approved while it is active (no confirmation asked): write, bash: make release") {
		t.Errorf("the skill's result does not say what it pre-approved: %s", body)
	}
	if res := toolResult(t, reqs[4].Body); !strings.Contains(res, "denied by the rule") {
		t.Errorf("the deny rule did not win over the skill: %q", res)
	}

	resumed, err := e.NewRun(RunOptions{Approver: ask, Resume: id})
	if err != nil {
		t.Fatal(err)
	}
	defer resumed.Close()
	runPrompt(t, resumed, "once more")
	if got := ask.asked(); len(got) != 2 {
		t.Errorf("the resumed session asked again: %v", got)
	}
	reqs = x.srv.Requests()
	for _, i := range []int{5, 9} { // after b1 and b3
		if res := toolResult(t, reqs[i].Body); !strings.Contains(res, "released") {
			t.Errorf("request %d: the approved command did not run: %q", i, res)
		}
	}
}

// Without the skill loaded, the same tool keeps asking.
func TestWithoutTheSkillLoadedTheToolStillAsks(t *testing.T) {
	x := newExtEnv(t, "", fakemodel.Script{Turns: []fakemodel.Turn{writeCall("w1", "a.md"), writeCall("w2", "b.md"), {Text: []string{"ok"}}}})
	writeFile(t, filepath.Join(x.work, ".albert-code", "skills", "deploy", "SKILL.md"), deploySkill)
	ask := &approvals{}
	run, err := x.load(t, true).NewRun(RunOptions{Approver: ask})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	runPrompt(t, run, "write")
	if got := ask.asked(); !slices.Equal(got, []string{"w1", "w2"}) {
		t.Errorf("asked about %v, want both writes", got)
	}
}

// A read-only profile pre-approves nothing that changes things, even a write tool
// its allowed_tools keep.
func TestAReadOnlyProfileWinsOverTheSkill(t *testing.T) {
	x := newExtEnv(t, "", fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{ID: "s1", Name: "skill", Arguments: `{"name":"deploy"}`}}},
		writeCall("w1", "NOTES.md"),
		{Text: []string{"ok"}},
	}})
	writeFile(t, filepath.Join(x.work, ".albert-code", "skills", "deploy", "SKILL.md"), deploySkill)
	writeFile(t, filepath.Join(x.home, "agents", "careful.toml"), "read_only = true\nallowed_tools = [\"write\", \"skill\"]\n")
	e, err := x.load(t, true).WithProfile("careful")
	if err != nil {
		t.Fatal(err)
	}
	ask := &approvals{}
	run, err := e.NewRun(RunOptions{Approver: ask})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	runPrompt(t, run, "write")
	if got := ask.asked(); !slices.Equal(got, []string{"w1"}) {
		t.Errorf("asked about %v, want the write asked despite the skill", got)
	}
}

// A skill the user runs as /name pre-approves its allowed-tools as loading it does;
// a skill that says user-invocable: false is no command.
func TestUseSkillPreApprovesLikeLoading(t *testing.T) {
	x := newExtEnv(t, "", fakemodel.Script{Turns: []fakemodel.Turn{
		writeCall("w1", "NOTES.md"),
		{Text: []string{"done"}},
	}})
	writeFile(t, filepath.Join(x.work, ".albert-code", "skills", "deploy", "SKILL.md"), deploySkill)
	writeFile(t, filepath.Join(x.work, ".albert-code", "skills", "hidden", "SKILL.md"),
		"---\nname: hidden\ndescription: Not a command.\nuser-invocable: false\n---\nx\n")
	e := x.load(t, true)
	ask := &approvals{}
	run, err := e.NewRun(RunOptions{Approver: ask})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	var names []string
	for _, s := range run.Commands() {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"deploy"}) {
		t.Fatalf("commands %v, want [deploy]", names)
	}
	if _, ok := run.UseSkill("hidden"); ok {
		t.Error("a user-invocable: false skill ran as a command")
	}
	s, ok := run.UseSkill("deploy")
	if !ok || !strings.HasPrefix(s.Body, "Write NOTES.md") {
		t.Fatalf("UseSkill(deploy) = %+v, %v", s, ok)
	}
	runPrompt(t, run, s.Body)
	if got := ask.asked(); len(got) != 0 {
		t.Errorf("asked about %v after /deploy pre-approved write", got)
	}
}
