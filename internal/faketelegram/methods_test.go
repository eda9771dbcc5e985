package faketelegram_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/etalab-ia/albert-code/internal/faketelegram"
)

func TestUploadsAreRecordedAndDownloadable(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	b := newBot(t, srv)
	doc, err := b.SendDocument(ctx, &bot.SendDocumentParams{ChatID: 3, Caption: "<i>report</i>", ParseMode: models.ParseModeHTML,
		Document: &models.InputFileUpload{Filename: "report.pdf", Data: bytes.NewReader([]byte("%PDF-1.7"))}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.SendPhoto(ctx, &bot.SendPhotoParams{ChatID: 3, Photo: &models.InputFileUpload{Filename: "a.png", Data: bytes.NewReader([]byte("png"))}}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SendVideo(ctx, &bot.SendVideoParams{ChatID: 3, Video: &models.InputFileUpload{Filename: "a.mp4", Data: bytes.NewReader([]byte("mp4"))}}); err != nil {
		t.Fatal(err)
	}
	got := srv.Messages(3)
	if len(got) != 3 || got[0].Method != "sendDocument" || got[0].FileName != "report.pdf" || string(got[0].File) != "%PDF-1.7" ||
		got[0].Plain != "report" || got[1].Method != "sendPhoto" || got[2].Method != "sendVideo" || got[2].MessageID != 3 {
		t.Fatalf("recorded %+v", got)
	}
	if doc.Document == nil || doc.Document.FileName != "report.pdf" || doc.Document.FileSize != 8 {
		t.Fatalf("returned document %+v", doc.Document)
	}
	f, err := b.GetFile(ctx, &bot.GetFileParams{FileID: doc.Document.FileID})
	if err != nil {
		t.Fatal(err)
	}
	if body := download(t, b.FileDownloadLink(f)); body != "%PDF-1.7" {
		t.Errorf("downloaded %q", body)
	}
	long := strings.Repeat("x", 1025)
	_, err = b.SendDocument(ctx, &bot.SendDocumentParams{ChatID: 3, Caption: long, Document: &models.InputFileUpload{Filename: "b.txt", Data: strings.NewReader("b")}})
	if err == nil || !strings.Contains(err.Error(), "message caption is too long") {
		t.Errorf("1025-unit caption: %v", err)
	}
	_, err = b.SendDocument(ctx, &bot.SendDocumentParams{ChatID: 3, Document: &models.InputFileUpload{Filename: "empty.txt", Data: strings.NewReader("")}})
	if err == nil || !strings.Contains(err.Error(), "file must be non-empty") {
		t.Errorf("empty file: %v", err)
	}
}

func download(t *testing.T, link string) string {
	t.Helper()
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return string(data)
}

func TestUsersFilesAndTheDownloadCap(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	b := newBot(t, srv)
	srv.SendDocument(4, 4, "notes.md", []byte("# notes"), "read this")
	srv.SendDocument(4, 4, "big.bin", make([]byte, 20<<20+1), "")
	srv.SendPhoto(4, 4, []byte("jpeg"), "")
	srv.SendVoice(4, 4, []byte("ogg"), "")
	ups, err := getUpdates(t, srv, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ups) != 4 {
		t.Fatalf("%d updates, want 4", len(ups))
	}
	m := ups[0].Message
	if m.Document == nil || m.Document.FileName != "notes.md" || m.Caption != "read this" || m.Document.MimeType != "text/markdown" {
		t.Fatalf("document message %+v (%+v)", m, m.Document)
	}
	f, err := b.GetFile(ctx, &bot.GetFileParams{FileID: m.Document.FileID})
	if err != nil || f.FileSize != 7 {
		t.Fatalf("getFile: %+v %v", f, err)
	}
	if body := download(t, b.FileDownloadLink(f)); body != "# notes" {
		t.Errorf("downloaded %q", body)
	}
	_, err = b.GetFile(ctx, &bot.GetFileParams{FileID: ups[1].Message.Document.FileID})
	if err == nil || err.Error() != "bad request, Bad Request: file is too big" {
		t.Errorf("getFile of 20 MB + 1: %v", err)
	}
	photo := ups[2].Message.Photo
	if len(photo) != 2 || ups[3].Message.Voice == nil {
		t.Errorf("photo sizes %d, voice %+v", len(photo), ups[3].Message.Voice)
	}
	if _, err := b.GetFile(ctx, &bot.GetFileParams{FileID: photo[len(photo)-1].FileID}); err != nil {
		t.Errorf("getFile of the largest photo: %v", err)
	}
}

func TestEditDraftActionCallbackCommands(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	b := newBot(t, srv)
	userMsg := srv.SendText(6, 6, "/start now")
	ups, err := getUpdates(t, srv, 0)
	if err != nil || len(ups) != 1 {
		t.Fatalf("updates %v %v", ups, err)
	}
	if e := ups[0].Message.Entities; len(e) != 1 || e[0].Type != models.MessageEntityTypeBotCommand || e[0].Length != 6 {
		t.Errorf("command entities %+v", e)
	}
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "Yes", CallbackData: "yes"}}}}
	sent, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: 6, Text: "thinking", ReplyMarkup: kb})
	if err != nil || int64(sent.ID) != userMsg+1 {
		t.Fatalf("sendMessage: %+v %v", sent, err)
	}
	if _, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: 6, MessageID: sent.ID, Text: "<b>done</b>", ParseMode: models.ParseModeHTML}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: 6, MessageID: sent.ID, Text: "<b>done</b>", ParseMode: models.ParseModeHTML}); err == nil ||
		!strings.Contains(err.Error(), "message is not modified") {
		t.Errorf("identical edit: %v", err)
	}
	if _, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: 6, MessageID: 99, Text: "x"}); err == nil || !strings.Contains(err.Error(), "message to edit not found") {
		t.Errorf("edit of a missing message: %v", err)
	}
	if m := srv.Messages(6); len(m) != 1 || m[0].Plain != "done" || m[0].Edits != 1 {
		t.Errorf("after the edit: %+v", m)
	}
	if _, err := b.SendMessageDraft(ctx, &bot.SendMessageDraftParams{ChatID: 6, DraftID: "5", Text: "partial"}); err != nil {
		t.Errorf("sendMessageDraft: %v", err)
	}
	if _, err := b.SendChatAction(ctx, &bot.SendChatActionParams{ChatID: 6, Action: models.ChatActionTyping}); err != nil {
		t.Errorf("sendChatAction: %v", err)
	}
	if _, err := b.SendChatAction(ctx, &bot.SendChatActionParams{ChatID: 6, Action: "dancing"}); err == nil {
		t.Errorf("sendChatAction accepted an unknown action")
	}
	_, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: 6, Text: "x", ReplyParameters: &models.ReplyParameters{MessageID: 50}})
	if err == nil || !strings.Contains(err.Error(), "message to be replied not found") {
		t.Errorf("reply to a missing message: %v", err)
	}
	qid := srv.PressButton(6, 6, int64(sent.ID), "yes")
	ups, err = getUpdates(t, srv, ups[0].ID+1)
	if err != nil || len(ups) != 1 || ups[0].CallbackQuery == nil || ups[0].CallbackQuery.Data != "yes" || ups[0].CallbackQuery.ID != qid ||
		ups[0].CallbackQuery.Message.Message == nil || ups[0].CallbackQuery.Message.Message.Text != "done" {
		t.Fatalf("callback update %+v %v", ups, err)
	}
	if _, err := b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: qid}); err != nil {
		t.Errorf("answerCallbackQuery: %v", err)
	}
	reply := srv.ReplyText(6, 6, int64(sent.ID), "why?")
	ups, _ = getUpdates(t, srv, ups[0].ID+1)
	if len(ups) != 1 || int64(ups[0].Message.ID) != reply || ups[0].Message.ReplyToMessage == nil || ups[0].Message.ReplyToMessage.ID != sent.ID {
		t.Errorf("reply update %+v", ups)
	}
	cmds := []models.BotCommand{{Command: "start", Description: "Start"}, {Command: "new", Description: "New session"}}
	if _, err := b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: cmds}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Commands(); len(got) != 2 || got[1].Command != "new" {
		t.Errorf("commands %+v", got)
	}
	if _, err := b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: []models.BotCommand{{Command: "Bad-Name", Description: "x"}}}); err == nil {
		t.Errorf("setMyCommands accepted an invalid command name")
	}
}

// getUpdates short-polls the fake and decodes the updates as the client
// library's models.
func getUpdates(t *testing.T, srv *faketelegram.Server, offset int64) ([]models.Update, error) {
	t.Helper()
	_, env, raw := post(t, testContext(t), methodURL(srv, "getUpdates")+"?offset="+strconv.FormatInt(offset, 10), "", nil)
	var ups []models.Update
	if err := json.Unmarshal(env.Result, &ups); err != nil {
		return nil, fmt.Errorf("decode %s: %w", raw, err)
	}
	return ups, nil
}

func TestEditReplyMarkupAndDelete(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	b := newBot(t, srv)
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "Allow", CallbackData: "allow"}}}}
	m, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: 30, Text: "run rm?", ReplyMarkup: kb})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(srv.Messages(30)[0].ReplyMarkup, `"allow"`) {
		t.Fatalf("markup not recorded: %+v", srv.Messages(30)[0])
	}
	empty := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{}}
	if _, err := b.EditMessageReplyMarkup(ctx, &bot.EditMessageReplyMarkupParams{ChatID: 30, MessageID: m.ID, ReplyMarkup: empty}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Messages(30)[0]; strings.Contains(got.ReplyMarkup, "allow") || got.Edits != 1 {
		t.Errorf("after removing the buttons: %+v", got)
	}
	if ok, err := b.DeleteMessage(ctx, &bot.DeleteMessageParams{ChatID: 30, MessageID: m.ID}); !ok || err != nil {
		t.Fatalf("deleteMessage: %v %v", ok, err)
	}
	if n := len(srv.Messages(30)); n != 0 {
		t.Errorf("%d messages after the delete", n)
	}
	if _, err := b.DeleteMessage(ctx, &bot.DeleteMessageParams{ChatID: 30, MessageID: m.ID}); err == nil {
		t.Error("deleting twice succeeded")
	}
	if _, err := b.GetMyCommands(ctx, &bot.GetMyCommandsParams{}); err != nil {
		t.Errorf("getMyCommands: %v", err)
	}
	if _, err := b.GetWebhookInfo(ctx); err == nil || !strings.Contains(err.Error(), "Not Found") {
		t.Errorf("an unimplemented method: %v", err)
	}
}

func TestGetMeAndDeleteWebhook(t *testing.T) {
	t.Parallel()
	srv := faketelegram.Start(t, token)
	ctx := testContext(t)
	b, err := bot.New(token, bot.WithServerURL(srv.URL())) // calls getMe
	if err != nil {
		t.Fatal(err)
	}
	me, err := b.GetMe(ctx)
	if err != nil || me.Username != faketelegram.BotUsername || me.ID != faketelegram.BotID || !me.IsBot {
		t.Fatalf("getMe: %+v %v", me, err)
	}
	srv.SendText(1, 1, "sent while the bot was down")
	if ok, err := b.DeleteWebhook(ctx, &bot.DeleteWebhookParams{DropPendingUpdates: true}); !ok || err != nil || srv.Pending() != 0 {
		t.Errorf("deleteWebhook dropping pending updates: %v %v, %d pending", ok, err, srv.Pending())
	}
	if _, err := bot.New("1:wrong", bot.WithServerURL(srv.URL())); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("a wrong token passed getMe: %v", err)
	}
}
