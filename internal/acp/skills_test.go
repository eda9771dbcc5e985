package acp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// A user-invocable skill is an available command; /name runs it as the turn's
// prompt, streamed like any other.
func TestSkillsAreCommands(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"shipped"}}}}, nil)
	dir := filepath.Join(f.work, ".albert-code", "skills", "deploy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: deploy\ndescription: Ship the release.\n---\nRun the release checklist.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	waitFor(t, "available commands", func() bool { return slices.Contains(c.kinds(), "available_commands_update") })
	var deploy *sdk.AvailableCommand
	for _, u := range c.snapshot() {
		if ac := u.Update.AvailableCommandsUpdate; ac != nil {
			for i, cmd := range ac.AvailableCommands {
				if cmd.Name == "deploy" {
					deploy = &ac.AvailableCommands[i]
				}
			}
		}
	}
	if deploy == nil || deploy.Description != "Ship the release." {
		t.Fatalf("/deploy offered as %+v", deploy)
	}
	resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "/deploy to staging"))
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("/deploy: %+v, %v", resp, err)
	}
	body := f.srv.ModelRequests()[0].Body
	for _, want := range []string{`Use the skill \"deploy\"`, "Run the release checklist.", "Request: to staging"} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %q: %s", want, body)
		}
	}
	if !strings.Contains(c.agentText(), "shipped") {
		t.Errorf("the answer was not streamed: %q", c.agentText())
	}
}
