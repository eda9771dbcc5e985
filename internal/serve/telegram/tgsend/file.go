package tgsend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// Telegram's upload limits for bots on the cloud Bot API
// (core.telegram.org/bots/api#sending-files): 50 MB for any file, 10 MB for
// a photo (a larger image goes as a document, uncompressed).
const (
	MaxUpload = 50 << 20
	maxPhoto  = 10 << 20
)

// ErrTooLarge is returned, wrapped, for a file over MaxUpload: nothing is
// uploaded.
var ErrTooLarge = errors.New("file too large for Telegram")

// photoExts and videoExts are the types Telegram shows inline; anything else
// goes as a document.
var (
	photoExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".webp": true}
	videoExts = map[string]bool{".mp4": true, ".mov": true, ".m4v": true}
)

// Kind returns how SendFile sends a file of size bytes named name: "photo",
// "video" or "document".
func Kind(name string, size int64) string {
	ext := strings.ToLower(filepath.Ext(name))
	switch {
	case photoExts[ext] && size <= maxPhoto:
		return "photo"
	case videoExts[ext]:
		return "video"
	}
	return "document"
}

// SendFile uploads the file at path to chatID as a photo, a video or a
// document by its type, and returns the message's id. A file over MaxUpload
// is refused before any upload with an error wrapping ErrTooLarge.
func (s *Sender) SendFile(ctx context.Context, chatID int64, path string) (int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, fmt.Errorf("send file to chat %d: %w", chatID, err)
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("send file %s to chat %d: not a regular file", path, chatID)
	}
	if st.Size() > MaxUpload {
		return 0, fmt.Errorf("send file %s to chat %d: it is %.1f MB, over the %d MB bots may upload: %w",
			path, chatID, float64(st.Size())/(1<<20), MaxUpload>>20, ErrTooLarge)
	}
	if st.Size() == 0 {
		return 0, fmt.Errorf("send file %s to chat %d: the file is empty, and Telegram refuses empty files", path, chatID)
	}
	name := filepath.Base(path)
	kind := Kind(name, st.Size())
	var msg *models.Message
	err = s.retry(ctx, "send "+kind, func() error {
		// Each attempt reads the file afresh: the previous upload consumed it.
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		upload := &models.InputFileUpload{Filename: name, Data: f}
		switch kind {
		case "photo":
			msg, err = s.bot.SendPhoto(ctx, &bot.SendPhotoParams{ChatID: chatID, Photo: upload})
		case "video":
			msg, err = s.bot.SendVideo(ctx, &bot.SendVideoParams{ChatID: chatID, Video: upload, SupportsStreaming: true})
		default:
			msg, err = s.bot.SendDocument(ctx, &bot.SendDocumentParams{ChatID: chatID, Document: upload})
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("send file %s to chat %d: %w", path, chatID, err)
	}
	return int64(msg.ID), nil
}
