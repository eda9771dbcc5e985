package telegram

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

// maxNameBytes keeps an upload's name under common file systems' 255-byte cap,
// with room for a " (99)" suffix.
const maxNameBytes = 200

// incoming is a file a user sent: what Telegram announces of it.
type incoming struct {
	FileID string
	// Name is the name given by the user or made up from the kind.
	Name string
	// Size is the announced size; 0 when Telegram did not say.
	Size int64
	Kind string
}

// incomingFile returns the file a message carries, if it is of a kind the bot
// takes: a document, a photo (its largest size), a video or a voice note.
func incomingFile(m *models.Message) (incoming, bool) {
	switch {
	case m.Document != nil:
		d := m.Document
		return incoming{FileID: d.FileID, Name: cmp.Or(d.FileName, "file_"+d.FileUniqueID), Size: d.FileSize, Kind: "document"}, true
	case len(m.Photo) > 0:
		p := m.Photo[len(m.Photo)-1]
		for _, s := range m.Photo {
			if s.Width*s.Height > p.Width*p.Height {
				p = s
			}
		}
		return incoming{FileID: p.FileID, Name: "photo_" + p.FileUniqueID + ".jpg", Size: int64(p.FileSize), Kind: "photo"}, true
	case m.Video != nil:
		v := m.Video
		return incoming{FileID: v.FileID, Name: cmp.Or(v.FileName, "video_"+v.FileUniqueID+".mp4"), Size: v.FileSize, Kind: "video"}, true
	case m.Voice != nil:
		v := m.Voice
		return incoming{FileID: v.FileID, Name: "voice_" + v.FileUniqueID + ".ogg", Size: v.FileSize, Kind: "voice note"}, true
	}
	return incoming{}, false
}

// sanitizeName makes a user's file name safe to create in a workspace: the last
// path element only (either slash), no leading dots (no hidden or "..").
// no control characters, at most maxNameBytes. fallback is used when nothing is
// left.
func sanitizeName(name, fallback string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError || r == ':' {
			return '_'
		}
		return r
	}, name)
	name = strings.TrimLeft(strings.TrimSpace(name), ".")
	if name == "" {
		name = fallback
	}
	if len(name) > maxNameBytes {
		ext := path.Ext(name)
		if len(ext) > 16 {
			ext = ""
		}
		stem := name[:maxNameBytes-len(ext)]
		for !utf8.ValidString(stem) {
			stem = stem[:len(stem)-1]
		}
		name = stem + ext
	}
	return name
}

// linkUnused links tmp (a file inside root) to name, or to "stem (n).ext" when
// name exists: an upload never overwrites a file silently. It returns the name
// used.
func linkUnused(root *os.Root, tmp, name string) (string, error) {
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	if stem == "" {
		stem, ext = name, ""
	}
	for n := 0; n < 100; n++ {
		candidate := name
		if n > 0 {
			candidate = fmt.Sprintf("%s (%d)%s", stem, n, ext)
		}
		err := root.Link(tmp, candidate)
		if err == nil {
			return candidate, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("%s and 99 numbered copies exist: remove some", name)
}
