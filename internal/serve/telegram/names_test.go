package telegram

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

func TestSanitizeName(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 150) + ".pdf"
	tests := map[string]string{
		"report.pdf":            "report.pdf",
		"../../etc/passwd":      "passwd",
		`..\..\boot.ini`:        "boot.ini",
		".bashrc":               "bashrc",
		"..":                    "upload",
		"...":                   "upload",
		"/":                     "upload",
		"a\x00b\nc.txt":         "a_b_c.txt",
		"C:evil.txt":            "C_evil.txt",
		"  spaced name .txt  ":  "spaced name .txt",
		"résumé 2026 (v2).docx": "résumé 2026 (v2).docx",
	}
	for in, want := range tests {
		if got := sanitizeName(in, "upload"); got != want {
			t.Errorf("sanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
	got := sanitizeName(long, "upload")
	if len(got) > maxNameBytes || !utf8.ValidString(got) || !strings.HasSuffix(got, ".pdf") {
		t.Errorf("long name: %d bytes, valid %t, %q", len(got), utf8.ValidString(got), got[len(got)-8:])
	}
}

func TestLinkUnusedNeverOverwrites(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var names []string
	for i, content := range []string{"first", "second", "third"} {
		tmp := ".part" + string(rune('0'+i))
		if err := root.WriteFile(tmp, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		name, err := linkUnused(root, tmp, "notes.txt")
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if strings.Join(names, "|") != "notes.txt|notes (1).txt|notes (2).txt" {
		t.Errorf("names %q", names)
	}
	if data, _ := root.ReadFile("notes.txt"); string(data) != "first" {
		t.Errorf("notes.txt overwritten: %q", data)
	}
}

func TestIncomingFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		m    models.Message
		want incoming
	}{
		{models.Message{Document: &models.Document{FileID: "d", FileUniqueID: "u1", FileName: "a.csv", FileSize: 10}}, incoming{"d", "a.csv", 10, "document"}},
		{models.Message{Document: &models.Document{FileID: "d", FileUniqueID: "u1"}}, incoming{"d", "file_u1", 0, "document"}},
		{models.Message{Photo: []models.PhotoSize{{FileID: "small", FileUniqueID: "s", Width: 90, Height: 90}, {FileID: "big", FileUniqueID: "b", Width: 1280, Height: 960, FileSize: 99}}},
			incoming{"big", "photo_b.jpg", 99, "photo"}},
		{models.Message{Video: &models.Video{FileID: "v", FileUniqueID: "u3"}}, incoming{"v", "video_u3.mp4", 0, "video"}},
		{models.Message{Voice: &models.Voice{FileID: "o", FileUniqueID: "u4", FileSize: 5}}, incoming{"o", "voice_u4.ogg", 5, "voice note"}},
	}
	for _, tc := range tests {
		got, ok := incomingFile(&tc.m)
		if !ok || got != tc.want {
			t.Errorf("got %+v %t, want %+v", got, ok, tc.want)
		}
	}
	if _, ok := incomingFile(&models.Message{Sticker: &models.Sticker{FileID: "s"}}); ok {
		t.Error("a sticker is taken as a file")
	}
}
