package telegram

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/go-telegram/bot"
)

// downloadTimeout bounds one download, so a stalled connection does not hold
// a caption's run forever. Judgement: 2 GB from a self-hosted Bot API server
// at a slow 4 MB/s fits.
const downloadTimeout = 10 * time.Minute

// download saves the file f into the workspace ws under a sanitised name that
// overwrites nothing, and returns that name. The size is checked from what
// getFile announces, then while copying, so a file past limit is never kept.
func (b *Bot) download(ctx context.Context, ws string, f incoming, limit int64) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, downloadTimeout)
	defer cancel()
	meta, err := b.client.GetFile(ctx, &bot.GetFileParams{FileID: f.FileID})
	if err != nil {
		return "", fmt.Errorf("could not fetch %s from Telegram: %v", f.Name, err)
	}
	if meta.FileSize > limit {
		return "", fmt.Errorf("file too large: %s is %s, the limit is %s", f.Name, humanBytes(meta.FileSize), humanBytes(limit))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.client.FileDownloadLink(meta), nil)
	if err != nil {
		return "", err
	}
	hc := b.opts.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("could not download %s: %v", f.Name, errors.Unwrap(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("could not download %s: Telegram answered %s", f.Name, resp.Status)
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		return "", fmt.Errorf("workspace error: %v", err)
	}
	defer root.Close()
	tmp := ".albert-upload-" + rand.Text()[:12] + ".part"
	out, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", fmt.Errorf("could not save %s: %v", f.Name, err)
	}
	defer root.Remove(tmp)
	n, err := io.Copy(out, io.LimitReader(resp.Body, limit+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return "", fmt.Errorf("could not save %s: %v", f.Name, err)
	case n > limit:
		return "", fmt.Errorf("file too large: %s is over the limit of %s", f.Name, humanBytes(limit))
	}
	name, err := linkUnused(root, tmp, sanitizeName(f.Name, "upload"))
	if err != nil {
		return "", fmt.Errorf("could not save %s: %v", f.Name, err)
	}
	return name, nil
}
