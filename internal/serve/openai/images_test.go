package openai

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pngBytes is the start of a PNG file: its signature and IHDR, which is what
// content sniffing reads.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

var pngBase64 = base64.StdEncoding.EncodeToString(pngBytes)

func imageBody(url string) string {
	return `{"messages":[{"role":"user","content":[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{"url":"` + url + `","detail":"low"}}]}]}`
}

func TestCLIImagesAreSavedInTheWorkspace(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t, "A pixel.", "A photo.")
	resp, body := post(t, srv, chatPath, imageBody("data:image/png;base64,"+pngBase64), "X-Albert-Code-Workspace", "proj")
	if resp.StatusCode != 200 || at(decode(t, body), "choices", 0, "message", "content") != "A pixel." {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	ws := filepath.Join(f.root, "proj")
	p := f.read(t, 1, "prompt")
	m := regexp.MustCompile(`\[See image: (\S+/_oai_uploads/upload_[0-9a-f]{24}\.png)\]`).FindStringSubmatch(p)
	if m == nil || !strings.HasPrefix(m[1], ws+"/") || !strings.HasPrefix(p, "What is this?\n") || !strings.Contains(p, "open it to see the image") {
		t.Fatalf("prompt %q", p)
	}
	saved, err := os.ReadFile(filepath.Join(f.dir, "uploads.1", filepath.Base(m[1])))
	if err != nil || !bytes.Equal(saved, pngBytes) {
		t.Errorf("the agent saw %q, %v", saved, err)
	}
	if _, err := os.Stat(filepath.Join(ws, "_oai_uploads")); !os.IsNotExist(err) {
		t.Errorf("the images stay in the workspace after the run: %v", err)
	}

	// A JPEG the client calls a PNG is saved as what its bytes are.
	jpeg := base64.StdEncoding.EncodeToString([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01"))
	post(t, srv, chatPath, imageBody("data:image/png;base64,"+jpeg))
	if p := f.read(t, 2, "prompt"); !regexp.MustCompile(`upload_[0-9a-f]{24}\.jpg\]`).MatchString(p) {
		t.Errorf("prompt %q", p)
	}
}

func TestCLIImagesRefused(t *testing.T) {
	t.Parallel()
	srv, f := cliServerOpts(t, "testdata/fake-chat.toml", func(o *Options) { o.MaxBody = 2 * maxImageBytes })
	param := "messages[0].content[1].image_url.url"
	tests := []struct{ name, url, says string }{
		{"remote https", "https://example.com/cat.png", "does not fetch images"},
		{"remote http", "HTTP://169.254.169.254/latest", "does not fetch images"},
		{"file", "file:///etc/passwd", "want a base64 data URL"},
		{"not base64", "data:image/png;base64,@@@@", "not base64"},
		{"not an image", "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("#!/bin/sh\nrm -rf /\n")), "not an image"},
		{"too large", "data:image/png;base64," + strings.Repeat("A", (maxImageBytes/3+2)*4), "larger than 20 MiB"},
	}
	for _, tc := range tests {
		resp, body := post(t, srv, chatPath, imageBody(tc.url))
		v := decode(t, body)
		msg, _ := at(v, "error", "message").(string)
		if resp.StatusCode != 400 || at(v, "error", "param") != param || !strings.Contains(msg, tc.says) {
			t.Errorf("%s: %d %.300s", tc.name, resp.StatusCode, body)
		}
	}
	if n := f.runs(t); n != 0 {
		t.Errorf("refused images started %d runs", n)
	}
}
