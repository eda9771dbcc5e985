package tgsend_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgsend"
)

func writeFile(t *testing.T, name string, size int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(strings.Repeat("z", size)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSendFileChoosesTheKind(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cases := []struct {
		name   string
		size   int
		method string
	}{
		{"chart.png", 100, "sendPhoto"},
		{"clip.MP4", 100, "sendVideo"},
		{"report.pdf", 100, "sendDocument"},
		{"huge-scan.jpg", 10<<20 + 1, "sendDocument"}, // over the photo cap: uncompressed
	}
	for i, c := range cases {
		path := writeFile(t, c.name, c.size)
		id, err := f.sender.SendFile(f.ctx, 20, path)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		sent := f.srv.Messages(20)
		if len(sent) != i+1 {
			t.Fatalf("%s: %d messages", c.name, len(sent))
		}
		m := sent[i]
		if m.Method != c.method || m.MessageID != id || m.FileName != c.name || len(m.File) != c.size {
			t.Errorf("%s: sent by %s as %q (%d bytes, id %d/%d), want %s", c.name, m.Method, m.FileName, len(m.File), m.MessageID, id, c.method)
		}
	}
}

// A file over 50 MB is refused before any upload, with a message that says why.
func TestSendFileRefusesOverTheCapBeforeUploading(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(t.TempDir(), "dump.tar")
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := file.Truncate(tgsend.MaxUpload + 1); err != nil { // sparse: no 50 MB written
		t.Fatal(err)
	}
	file.Close()
	_, err = f.sender.SendFile(f.ctx, 21, path)
	if !errors.Is(err, tgsend.ErrTooLarge) || !strings.Contains(err.Error(), "over the 50 MB bots may upload") {
		t.Fatalf("err %v", err)
	}
	if n := len(f.srv.Calls("")); n != 0 {
		t.Errorf("%d calls reached Telegram", n)
	}
	if _, err := f.sender.SendFile(f.ctx, 21, writeFile(t, "empty.txt", 0)); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty file: %v", err)
	}
}

// An upload is retried after a 502 with the whole file, not what is left of it.
func TestSendFileRetriesWithTheWholeFile(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.srv.FailNext("sendDocument", 502, "", 0)
	if _, err := f.sender.SendFile(f.ctx, 22, writeFile(t, "a.txt", 5000)); err != nil {
		t.Fatal(err)
	}
	if sent := f.srv.Messages(22); len(sent) != 1 || len(sent[0].File) != 5000 {
		t.Fatalf("sent %d messages, first with %d bytes", len(sent), len(sent[0].File))
	}
}
