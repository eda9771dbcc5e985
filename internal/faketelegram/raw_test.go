package faketelegram_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/faketelegram"
)

type envelope struct {
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  struct {
		RetryAfter int `json:"retry_after"`
	} `json:"parameters"`
}

// post sends body with contentType to method and decodes the envelope.
func post(t *testing.T, ctx context.Context, u, contentType string, body io.Reader) (int, envelope, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env envelope
	_ = json.Unmarshal(raw, &env)
	return resp.StatusCode, env, string(raw)
}

func methodURL(srv *faketelegram.Server, method string) string {
	return srv.URL() + "/bot" + srv.Token() + "/" + method
}

// Every encoding the Bot API accepts carries the same parameters.
func TestEncodings(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	_ = mw.WriteField("chat_id", "5")
	_ = mw.WriteField("text", "multipart")
	_ = mw.Close()
	cases := []struct {
		name, url, ctype, body string
	}{
		{"query", methodURL(srv, "sendMessage") + "?chat_id=5&text=query", "", ""},
		{"form", methodURL(srv, "sendMessage"), "application/x-www-form-urlencoded", url.Values{"chat_id": {"5"}, "text": {"form"}}.Encode()},
		{"json", methodURL(srv, "sendMessage"), "application/json", `{"chat_id":5,"text":"json","reply_parameters":{"message_id":1}}`},
		{"multipart", methodURL(srv, "sendMessage"), mw.FormDataContentType(), mp.String()},
	}
	for _, c := range cases {
		code, env, raw := post(t, ctx, c.url, c.ctype, strings.NewReader(c.body))
		if code != 200 || !env.OK {
			t.Errorf("%s: %d %s", c.name, code, raw)
		}
	}
	got := srv.Messages(5)
	var texts []string
	for _, m := range got {
		texts = append(texts, m.Plain)
	}
	if strings.Join(texts, ",") != "query,form,json,multipart" || got[2].ReplyTo != 1 {
		t.Errorf("messages %q, json reply to %d", texts, got[2].ReplyTo)
	}
}

func TestWrongTokenIsUnauthorized(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	for _, u := range []string{srv.URL() + "/bot1:wrong/getMe", srv.URL() + "/file/bot1:wrong/documents/file_1.txt"} {
		code, env, raw := post(t, ctx, u, "", nil)
		if code != 401 || env.OK || env.ErrorCode != 401 || env.Description != "Unauthorized" {
			t.Errorf("%s: %d %s", u, code, raw)
		}
	}
}

func TestGetUpdatesLongPolls(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	poll := func(q string) ([]map[string]any, time.Duration) {
		start := time.Now()
		code, env, raw := post(t, ctx, methodURL(srv, "getUpdates")+"?"+q, "", nil)
		if code != 200 {
			t.Fatalf("getUpdates?%s: %d %s", q, code, raw)
		}
		var ups []map[string]any
		if err := json.Unmarshal(env.Result, &ups); err != nil {
			t.Fatal(err)
		}
		return ups, time.Since(start)
	}
	if ups, took := poll("timeout=1"); len(ups) != 0 || took < 900*time.Millisecond {
		t.Errorf("empty queue: %d updates after %v, want none after the 1 s timeout", len(ups), took)
	}
	time.AfterFunc(200*time.Millisecond, func() { srv.SendText(9, 9, "late") })
	ups, took := poll("timeout=10")
	if len(ups) != 1 || took > 5*time.Second {
		t.Fatalf("update sent during the poll: %d updates after %v", len(ups), took)
	}
	first := int64(ups[0]["update_id"].(float64))
	srv.PressButton(9, 9, 1, "yes")
	srv.SendText(9, 9, "third")
	if ups, _ := poll("limit=1"); len(ups) != 1 || int64(ups[0]["update_id"].(float64)) != first {
		t.Errorf("limit=1 without offset: %v, want the unconfirmed first update again", ups)
	}
	if ups, _ := poll(`allowed_updates=["callback_query"]`); len(ups) != 1 || ups[0]["callback_query"] == nil {
		t.Errorf("allowed_updates callback_query: %v", ups)
	}
	if ups, _ := poll("offset=" + strconv.FormatInt(first+1, 10)); len(ups) != 2 || srv.Pending() != 2 {
		t.Errorf("offset confirming the first: %d updates, %d pending; want 2 and 2", len(ups), srv.Pending())
	}
	if ups, _ := poll("offset=-1"); len(ups) != 1 || ups[0]["message"].(map[string]any)["text"] != "third" {
		t.Errorf("offset=-1: %v, want only the last", ups)
	}
}

// A second poller ends the first with 409, as Telegram does.
func TestGetUpdatesConflict(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	first := make(chan int, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, methodURL(srv, "getUpdates")+"?timeout=10", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			first <- 0
			return
		}
		resp.Body.Close()
		first <- resp.StatusCode
	}()
	time.Sleep(200 * time.Millisecond) // let the first poll block
	if code, _, raw := post(t, ctx, methodURL(srv, "getUpdates")+"?timeout=1", "", nil); code != 200 {
		t.Errorf("second poller: %d %s", code, raw)
	}
	select {
	case code := <-first:
		if code != http.StatusConflict {
			t.Errorf("first poller got %d, want 409", code)
		}
	case <-ctx.Done():
		t.Fatal("the first poll was not ended by the second")
	}
}

func TestFailNext(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	srv.FailNext("sendMessage", 429, "", 7)
	srv.FailNext("sendMessage", 502, "", 0)
	srv.FailNext("sendMessage", 400, "Bad Request: chat not found", 0)
	u := methodURL(srv, "sendMessage") + "?chat_id=1&text=x"
	code, env, _ := post(t, ctx, u, "", nil)
	if code != 429 || env.ErrorCode != 429 || env.Parameters.RetryAfter != 7 || env.Description != "Too Many Requests: retry after 7" {
		t.Errorf("429: %d %+v", code, env)
	}
	code, _, raw := post(t, ctx, u, "", nil)
	if code != 502 || !strings.Contains(raw, "<h1>502 Bad Gateway</h1>") {
		t.Errorf("502: %d %s", code, raw)
	}
	code, env, _ = post(t, ctx, u, "", nil)
	if code != 400 || env.Description != "Bad Request: chat not found" {
		t.Errorf("400: %d %+v", code, env)
	}
	if code, _, raw := post(t, ctx, u, "", nil); code != 200 {
		t.Errorf("after the faults: %d %s", code, raw)
	}
	calls := srv.Calls("sendmessage")
	if len(calls) != 4 || calls[0].Status != 429 || len(srv.Messages(1)) != 1 {
		t.Errorf("recorded %d calls (first %d), %d messages", len(calls), calls[0].Status, len(srv.Messages(1)))
	}
}

// An upload over the 50 MB cap is refused as the cloud API does, and a photo
// over 10 MB is refused as a photo.
func TestUploadCaps(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	upload := func(method, field string, size int64) (int, string) {
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			_ = mw.WriteField("chat_id", "8")
			part, _ := mw.CreateFormFile(field, "big.jpg")
			_, err := io.Copy(part, io.LimitReader(zeros{}, size))
			if err == nil {
				err = mw.Close()
			}
			pw.CloseWithError(err)
		}()
		code, _, raw := post(t, ctx, methodURL(srv, method), mw.FormDataContentType(), pr)
		return code, raw
	}
	if code, raw := upload("sendDocument", "document", 51<<20); code != http.StatusRequestEntityTooLarge {
		t.Errorf("51 MB document: %d %s", code, raw)
	}
	if code, raw := upload("sendPhoto", "photo", 10<<20+1); code != 400 || !strings.Contains(raw, "PHOTO_INVALID_DIMENSIONS") {
		t.Errorf("10 MB + 1 photo: %d %s", code, raw)
	}
	if len(srv.Messages(8)) != 0 {
		t.Error("a refused upload was recorded as sent")
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
