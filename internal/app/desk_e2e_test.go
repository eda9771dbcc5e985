package app

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// releaseBinary is albert-code linked as release v0.2.0: the shared test binary is
// a development build, which never checks for updates.
var releaseBinary = sync.OnceValues(func() (string, error) {
	path := filepath.Join(filepath.Dir(binary), "albert-code-v0.2.0")
	build := exec.Command("go", "build", "-o", path,
		"-ldflags", "-X github.com/etalab-ia/albert-code/internal/app.version=v0.2.0",
		"github.com/etalab-ia/albert-code/cmd/albert-code")
	out, err := build.CombinedOutput()
	if err != nil {
		return "", &exec.Error{Name: "go build: " + string(out), Err: err}
	}
	return path, nil
})

// releaseFeed is GitHub's latest-release endpoint, played on 127.0.0.1.
func releaseFeed(t *testing.T, tag string) (url string, requests *atomic.Int32) {
	requests = &atomic.Int32{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /repos/etalab-ia/albert-code/releases/latest", func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"tag_name": "` + tag + `", "html_url": "https://github.com/etalab-ia/albert-code/releases/tag/` + tag + `"}`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/repos/etalab-ia/albert-code/releases/latest", requests
}

func (h *harness) useReleaseBinary() {
	h.t.Helper()
	bin, err := releaseBinary()
	if err != nil {
		h.t.Fatal(err)
	}
	h.bin = bin
}

// The UI tells of a newer release once the feed answers, and a second start the
// same day uses the cached answer without asking again.
func TestTUIUpdateNoticeFromTheFeed(t *testing.T) {
	h := newHarness(t)
	h.useReleaseBinary()
	feed, requests := releaseFeed(t, "v0.3.0")
	h.globalConfig("update_feed = \"" + feed + "\"\n")
	on := []string{"ALBERT_CODE_NO_UPDATE_CHECK=0"}

	for start := 1; start <= 2; start++ {
		tm := h.startTUI(on, "--trust")
		tm.waitFor("albert-code v0.3.0 is available (you have v0.2.0)")
		tm.send(keyCtrlC, keyCtrlC)
		if code := exitCode(tm.wait()); code != 0 {
			t.Fatalf("start %d: exit code %d", start, code)
		}
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("the feed was asked %d times in two starts, want once", n)
	}
	data, err := os.ReadFile(filepath.Join(h.home, "update_check.json"))
	if err != nil || !strings.Contains(string(data), `"tag_name": "v0.3.0"`) {
		t.Errorf("cache = %q, %v", data, err)
	}
}

// CI and headless runs never ask the feed.
func TestUpdateCheckIsOffInCIAndHeadless(t *testing.T) {
	h := newHarness(t, fakemodel.Turn{Text: []string{"headless answer"}})
	h.useReleaseBinary()
	feed, requests := releaseFeed(t, "v0.3.0")
	h.globalConfig("update_feed = \"" + feed + "\"\n")

	tm := h.startTUI([]string{"ALBERT_CODE_NO_UPDATE_CHECK=0", "CI=true"}, "--trust")
	tm.waitFor("/help for commands")
	time.Sleep(300 * time.Millisecond) // the check would have run by now
	tm.send(keyCtrlC, keyCtrlC)
	tm.wait()

	h.env = append(h.env, "ALBERT_CODE_NO_UPDATE_CHECK=0")
	if r := h.run("-p", "hi"); r.code != 0 || !strings.Contains(r.stdout, "headless answer") {
		t.Fatalf("-p: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the feed was asked %d times with CI set and in -p mode, want 0", n)
	}
	if _, err := os.Stat(filepath.Join(h.home, "update_check.json")); err == nil {
		t.Error("an update cache was written")
	}
}

// With [notifications] on, the UI asks the terminal for focus reports, and a turn
// that ends while the terminal is unfocused writes an OSC 777 notification.
func TestTUINotifiesWhenUnfocused(t *testing.T) {
	h := newHarness(t, fakemodel.Turn{Text: []string{"first answer"}}, fakemodel.Turn{Text: []string{"second answer"}})
	h.globalConfig("[notifications]\nenabled = true\nmethod = \"terminal\"\nsequence = \"osc777\"\nafter = \"1ms\"\n")
	tm := h.startTUI(nil, "--trust")
	tm.waitFor("/help for commands")
	if !strings.Contains(tm.output(), "\x1b[?1004h") {
		t.Fatal("focus reporting (DECSET 1004) was not turned on")
	}
	tm.typeLine("focused")
	tm.waitFor("first answer")
	tm.send("\x1b[O") // the terminal lost the focus
	tm.typeLine("unfocused")
	tm.waitFor("second answer")
	want := "\x1b]777;notify;albert-code · " + filepath.Base(h.work) + ";the turn ended after "
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(tm.output(), want) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := strings.Count(tm.output(), "\x1b]777;"); n != 1 {
		t.Errorf("%d OSC 777 notifications, want 1 (for the unfocused turn only)", n)
	}
	tm.send(keyCtrlC, keyCtrlC)
	tm.wait()
}

// Off by default: no focus reports asked, no notification written.
func TestTUINotificationsOffByDefault(t *testing.T) {
	h := newHarness(t, fakemodel.Turn{Text: []string{"an answer"}})
	tm := h.startTUI(nil, "--trust")
	tm.waitFor("/help for commands")
	tm.send("\x1b[O")
	tm.typeLine("hi")
	tm.waitFor("an answer")
	time.Sleep(300 * time.Millisecond)
	out := tm.output()
	if strings.Contains(out, "\x1b[?1004h") || strings.Contains(out, "\x1b]777;") || strings.Contains(out, "\x1b]9;") {
		t.Errorf("notifications are on by default: %q", out)
	}
	tm.send(keyCtrlC, keyCtrlC)
	tm.wait()
}
