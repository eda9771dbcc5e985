package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// /config set, /fallback and /reload work in an editor too: the setting is saved
// in the global file, the session reads its configuration again, and the
// conversation goes on where it was.
func TestConfigSetFallbackAndReloadInAnEditor(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"first answer"}}, {Text: []string{"second answer"}}}}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	run := func(line string) {
		t.Helper()
		resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, line))
		if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
			t.Fatalf("%s: %+v, %v", line, resp, err)
		}
	}
	run("remember the word apricot")
	run("/config set compaction.threshold 0.55")
	run("/fallback off")
	run("/reload")
	run("/config show")
	run("what was the word?")

	global, err := config.GlobalFile(func(k string) (string, bool) { v, ok := f.vars[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(global)
	if err != nil {
		t.Fatalf("the global file %s was not written: %v", filepath.Base(global), err)
	}
	for _, want := range []string{"threshold = 0.55", "auto_fallback_enabled = false"} {
		if !strings.Contains(string(saved), want) {
			t.Errorf("the global file lacks %q:\n%s", want, saved)
		}
	}
	text := c.agentText()
	for _, want := range []string{"Automatic fallback off", "0.55"} {
		if !strings.Contains(text, want) {
			t.Errorf("the editor was not told %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "not available") {
		t.Errorf("a command was unavailable in the editor:\n%s", text)
	}
	reqs := f.srv.ModelRequests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Body, "apricot") {
		t.Fatalf("after the reloads the conversation lost its history: %d model requests", len(reqs))
	}
}
