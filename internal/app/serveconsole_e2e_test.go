package app

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// The real binary serves the web console on the API's port: its login takes the
// API token, and the quota page has the native backend's gauges.
func TestServeMountsTheWebConsole(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakemodel.Turn{Text: []string{"hi"}})
	port := freePort(t)
	token := "e2e-console-token-0123456789"
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd, stderr, exited := startServe(ctx, t, h, "ALBERT_CODE_API_MODE=1",
		"ALBERT_CODE_API_MODE_PORT="+strconv.Itoa(port), "ALBERT_CODE_API_MODE_TOKEN="+token)
	defer stopServe(t, cmd, exited, stderr, 40*time.Second)
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 20 * time.Second}
	var login string
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := client.Get(base + "/ui/runs")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			login = string(body)
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("serve exited: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve never answered:\n%s", stderr.String())
		}
	}
	if !strings.Contains(login, `name="token"`) {
		t.Fatalf("/ui/runs without a session is not the login page:\n%s", login)
	}
	resp, err := client.PostForm(base+"/ui/login", url.Values{"token": {token}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<h1>Runs</h1>") {
		t.Fatalf("after logging in: %d\n%s", resp.StatusCode, body)
	}
	resp, err = client.Get(base + "/ui/quota")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `<meter min="0"`) {
		t.Errorf("the quota page has no gauge for the native backend's models:\n%s", body)
	}
}
