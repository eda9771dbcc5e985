package agentenv

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func skillFile(name, desc, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n" + body + "\n"
}

func TestSkillsAreListedAndLoadedOnDemand(t *testing.T) {
	x := newExtEnv(t, "", fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{Name: "skill", Arguments: `{"name":"deploy"}`}}},
		{Text: []string{"deployed"}},
	}})
	writeFile(t, filepath.Join(x.home, "skills", "code-review", "SKILL.md"), skillFile("code-review", "Review a change before merging.", "Read the diff."))
	writeFile(t, filepath.Join(x.root, "repo", ".agents", "skills", "deploy", "SKILL.md"), skillFile("deploy", "Ship the service to staging.", "Run make deploy-staging."))
	broken := filepath.Join(x.root, "repo", "work", ".albert-code", "skills", "broken", "SKILL.md")
	writeFile(t, broken, "no front matter here\n")

	run, err := x.load(t, true).NewRun(RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if w := strings.Join(run.Warnings, "\n"); !strings.Contains(w, broken) {
		t.Errorf("warnings = %q, want the broken skill named", run.Warnings)
	}
	runPrompt(t, run, "deploy it")
	reqs := x.srv.Requests()
	for _, want := range []string{"# Skills", "- code-review: Review a change before merging.", "- deploy: Ship the service to staging.", `"name":"skill"`} {
		if !strings.Contains(reqs[0].Body, want) {
			t.Errorf("first request lacks %q", want)
		}
	}
	if strings.Contains(reqs[0].Body, "make deploy-staging") {
		t.Error("a skill's instructions were in the prompt before it was loaded")
	}
	if !strings.Contains(toolResult(t, reqs[1].Body), "Run make deploy-staging.") {
		t.Errorf("the skill tool did not return the instructions: %s", toolResult(t, reqs[1].Body))
	}
}

func TestProjectSkillsNeedATrustedFolder(t *testing.T) {
	x := newExtEnv(t, "", fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"hi"}}}})
	writeFile(t, filepath.Join(x.home, "skills", "code-review", "SKILL.md"), skillFile("code-review", "Review a change.", "Read the diff."))
	writeFile(t, filepath.Join(x.root, "repo", ".agents", "skills", "deploy", "SKILL.md"), skillFile("deploy", "Ship it.", "x"))
	run, err := x.load(t, false).NewRun(RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	runPrompt(t, run, "hi")
	body := x.srv.Requests()[0].Body
	if !strings.Contains(body, "- code-review: Review a change.") || strings.Contains(body, "deploy") {
		t.Errorf("untrusted folder: want only the user's skill listed; body has deploy=%v", strings.Contains(body, "deploy"))
	}
}

func TestHooksRunAroundTheAgentsCalls(t *testing.T) {
	dir := t.TempDir()
	// Hooks run in the sandbox, which lets them write the workspace, where they
	// run, and not elsewhere.
	guard := filepath.Join(dir, "guard.sh")
	writeFile(t, guard, "#!/bin/sh\ncat >/dev/null\necho '{\"decision\":\"deny\",\"reason\":\"skills are off today\"}'\n")
	x := newExtEnv(t, `[[hooks.before_tool]]
command = "`+guard+`"
tools = ["skill"]

[[hooks.after_turn]]
command = "cat > turn.json"
`, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{Name: "skill", Arguments: `{"name":"code-review"}`}}},
		{Text: []string{"fine"}},
	}})
	writeFile(t, filepath.Join(x.home, "skills", "code-review", "SKILL.md"), skillFile("code-review", "Review a change.", "Read the diff."))
	run, err := x.load(t, true).NewRun(RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	runPrompt(t, run, "review")
	if got := toolResult(t, x.srv.Requests()[1].Body); got != "a hook refused this call: skills are off today" {
		t.Errorf("tool result = %q", got)
	}
	data := readFile(t, filepath.Join(x.work, "turn.json"))
	if !strings.Contains(data, `"event":"after_turn"`) || !strings.Contains(data, `"stop_reason":"end_turn","text":"fine"`) ||
		!strings.Contains(data, `"session_id":"`+run.SessionID+`"`) {
		t.Errorf("after_turn hook read %s", data)
	}
}
