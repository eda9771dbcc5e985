package main

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// sessionJSON is the 3-turn tool session every contestant plays: read a file,
// run bash, answer. Both agents name these tools read {path} and bash {command},
// so one script serves all of them with identical timing.
//
//go:embed session.json
var sessionJSON []byte

const (
	prompt    = "Read notes.txt, then run `echo bench-$((6*7))` with bash, then tell me what you found."
	notesFile = "notes.txt"
	// notesMarker is the file's content: finding it in the second request proves
	// the read tool ran and its result went back to the model.
	notesMarker = "agentbench-marker-7f3a"
	// bashMarker is what `echo bench-$((6*7))` prints; nothing before the third
	// request contains it unless bash really ran.
	bashMarker = "bench-42"
	// finalText is the end of the third turn's scripted answer.
	finalText = "and bash printed bench-42."
	modelName = "mistral-medium"
)

func loadSession() (fakemodel.Script, error) {
	s, err := fakemodel.ParseScript(sessionJSON)
	if err != nil {
		return fakemodel.Script{}, fmt.Errorf("parse embedded session.json: %w", err)
	}
	return s, nil
}

// newWorkspace makes a fresh workspace and home under dir.
func newWorkspace(dir string) (home, work string, err error) {
	home, work = filepath.Join(dir, "home"), filepath.Join(dir, "work")
	for _, d := range []string{home, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", "", fmt.Errorf("make %s: %w", d, err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, notesFile), []byte(notesMarker+"\n"), 0o644); err != nil {
		return "", "", fmt.Errorf("write %s: %w", notesFile, err)
	}
	return home, work, nil
}

// checkRequests verifies that the fake served exactly the scripted chat turns,
// in order, and that each tool's output reached the model. It returns how many
// other requests (model listings, probes) the contestant made.
func checkRequests(reqs []fakemodel.Recorded, turns int) (other int, err error) {
	var chat []fakemodel.Recorded
	for _, r := range reqs {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			chat = append(chat, r)
		} else {
			other++
		}
	}
	if len(chat) != turns {
		return other, fmt.Errorf("fake got %d chat requests, want %d", len(chat), turns)
	}
	for i, r := range chat {
		if r.Turn != i {
			return other, fmt.Errorf("chat request %d consumed turn %d", i, r.Turn)
		}
	}
	if !strings.Contains(chat[1].Body, notesMarker) {
		return other, fmt.Errorf("second request lacks the read result %q", notesMarker)
	}
	if !strings.Contains(chat[2].Body, bashMarker) {
		return other, fmt.Errorf("third request lacks the bash output %q", bashMarker)
	}
	return other, nil
}
