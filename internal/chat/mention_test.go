package chat

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// A prompt naming a file with @path sends the file with it (the UI and ACP both
// prompt through here).
func TestPromptSendsTheFilesItNames(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"ok"}}}})
	env := testEnv(t, srv, nil)
	if err := os.WriteFile(filepath.Join(env.WorkDir, "notes.txt"), []byte("the marker is 42\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, env, Options{})
	mustPrompt(t, s, "what does @notes.txt say?")
	got := decode(t, srv.Requests()[0]).contents()
	want := "what does @notes.txt say?\n\nContents of notes.txt:\n```\nthe marker is 42\n```"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("user message %q, want %q", got, want)
	}
}
