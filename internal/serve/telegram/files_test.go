package telegram

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgsend"
)

func TestExtractSendFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, text string
		paths    []string
	}{
		{"no tag", "no tag", nil},
		{"Here it is:\n[SEND_FILE: out/report.pdf]\n\nand a chart [SEND_FILE:chart.png] inline.",
			"Here it is:\n\nand a chart  inline.", []string{"out/report.pdf", "chart.png"}},
		{"[SEND_FILE: a b.txt ][SEND_FILE: c.txt]", "", []string{"a b.txt", "c.txt"}},
		{"[SEND_FILE: ]empty", "empty", nil},
		{"[SEND_FILE: broken\nacross] lines", "[SEND_FILE: broken\nacross] lines", nil},
	}
	for _, tc := range tests {
		text, paths := extractSendFiles(tc.in)
		if text != tc.text || !reflect.DeepEqual(paths, tc.paths) {
			t.Errorf("%q: got %q %q, want %q %q", tc.in, text, paths, tc.text, tc.paths)
		}
	}
}

func TestOpenInWorkspaceStaysInside(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ws := filepath.Join(root, "chat_1")
	other := filepath.Join(root, "chat_2")
	for _, d := range []string{ws, other, filepath.Join(ws, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(ws, "sub", "ok.txt"), "mine")
	write(filepath.Join(other, "secret.txt"), "theirs")
	if err := os.Symlink(filepath.Join(other, "secret.txt"), filepath.Join(ws, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/ok.txt", filepath.Join(ws, "inner.txt")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"sub/ok.txt", "inner.txt", filepath.Join(ws, "sub/ok.txt"), "./sub/../sub/ok.txt"} {
		f, _, err := openInWorkspace(ws, rel)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		data, _ := io.ReadAll(f)
		f.Close()
		if string(data) != "mine" {
			t.Errorf("%s read %q", rel, data)
		}
	}
	for _, rel := range []string{"../chat_2/secret.txt", filepath.Join(other, "secret.txt"), "link.txt", "/etc/passwd", "sub/../../chat_2/secret.txt"} {
		f, _, err := openInWorkspace(ws, rel)
		if err == nil {
			f.Close()
			t.Errorf("%s: opened, want refused", rel)
			continue
		}
		if msg := openError(rel, err); !strings.HasPrefix(msg, "refused, outside this chat's workspace") {
			t.Errorf("%s: %q", rel, msg)
		}
	}
	if _, _, err := openInWorkspace(ws, "missing.txt"); openError("missing.txt", err) != "not found: missing.txt" {
		t.Errorf("missing: %v", err)
	}
}

func TestCheckSendable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(tgsend.MaxUpload + 1); err != nil { // sparse: no 50 MB written
		t.Fatal(err)
	}
	f.Close()
	for path, want := range map[string]string{dir: "is a folder", empty: "file is empty: x", big: "file too large (52428801 bytes"} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := checkSendable("x", info); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
}
