package telegram

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUploadsLandInTheChatWorkspace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, nil)
	ws := filepath.Join(f.root.Dir(), "chat_1001")
	f.api.SendDocument(chatA, alice, "../../etc/report.csv", []byte("a,b\n1,2\n"), "")
	contains(t, f.last(chatA, 1), "saved report.csv")
	f.api.SendDocument(chatA, alice, "report.csv", []byte("second"), "")
	contains(t, f.last(chatA, 2), "saved report (1).csv")
	f.api.SendDocument(chatA, alice, ".bashrc", []byte("alias x=y"), "")
	contains(t, f.last(chatA, 3), "saved bashrc")
	f.api.SendPhoto(chatA, alice, []byte("JPEGDATA"), "")
	contains(t, f.last(chatA, 4), "saved photo_")
	f.api.SendVoice(chatA, alice, []byte("OGGDATA"), "")
	contains(t, f.last(chatA, 5), "saved voice_")
	f.api.SendVideo(chatA, alice, "clip.mp4", []byte("MP4DATA"), "")
	contains(t, f.last(chatA, 6), "saved clip.mp4")
	for name, want := range map[string]string{"report.csv": "a,b\n1,2\n", "report (1).csv": "second", "bashrc": "alias x=y", "clip.mp4": "MP4DATA"} {
		data, err := os.ReadFile(filepath.Join(ws, name))
		if err != nil || string(data) != want {
			t.Errorf("%s: %q %v", name, data, err)
		}
	}
	entries, _ := os.ReadDir(ws)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left in the workspace: %s", e.Name())
		}
	}
	if n := len(f.agent.requests()); n != 0 {
		t.Errorf("%d runs without a caption", n)
	}
}

func TestUploadWithCaptionRunsTheAgent(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, nil)
	f.api.SendDocument(chatA, alice, "data.csv", []byte("x"), "summarise it")
	f.last(chatA, 1)
	reqs := f.agent.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d runs", len(reqs))
	}
	want := "The user sent a document, saved in your working folder as \"data.csv\".\n\nsummarise it"
	if reqs[0].Prompt != want {
		t.Errorf("prompt %q\nwant %q", reqs[0].Prompt, want)
	}
}

func TestUploadOverTheLimitIsRefusedBeforeDownload(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA+"max_upload: 1KiB\n", nil)
	f.api.SendUpdate(map[string]any{"message": map[string]any{
		"message_id": 900, "date": 1, "chat": map[string]any{"id": chatA, "type": "private"},
		"from":     map[string]any{"id": alice, "is_bot": false, "first_name": "Alice"},
		"document": map[string]any{"file_id": "huge", "file_unique_id": "uhuge", "file_name": "disk.iso", "file_size": int64(2) << 30},
	}})
	contains(t, f.last(chatA, 1), "file too large: disk.iso is 2.0 GiB, the limit is 1.0 KiB")
	// A file whose size was not announced is cut while copying.
	id := f.api.AddFile("big.bin", []byte(strings.Repeat("x", 2048)))
	f.api.SendUpdate(map[string]any{"message": map[string]any{
		"message_id": 901, "date": 1, "chat": map[string]any{"id": chatA, "type": "private"},
		"from":     map[string]any{"id": alice, "is_bot": false, "first_name": "Alice"},
		"document": map[string]any{"file_id": id, "file_unique_id": "ubig", "file_name": "big.bin"},
	}})
	contains(t, f.last(chatA, 2), "file too large: big.bin")
	if n := len(f.api.Calls("getFile")); n != 1 {
		t.Errorf("%d getFile calls, want 1 (none for the announced 2 GB)", n)
	}
	entries, _ := os.ReadDir(filepath.Join(f.root.Dir(), "chat_1001"))
	if len(entries) != 0 {
		t.Errorf("the workspace holds %d entries", len(entries))
	}
}
