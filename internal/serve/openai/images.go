package openai

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/native"
)

// A CLI agent reads a conversation's images as files: each image_url part is saved
// in the run's workspace, under uploadDir, and the prompt names the file, as the
// original did. Only data URLs are taken: fetching a URL would make the server
// reach, on its own network, any address a client names.
const (
	uploadDir = "_oai_uploads"
	// maxImageBytes bounds one decoded image: OpenAI's own limit per image.
	maxImageBytes = 20 << 20
)

// imageTypes are the types an image's bytes may have (OpenAI's list), with the
// extension of the file.
var imageTypes = map[string]string{"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp"}

// image is an image_url part, decoded and checked, waiting for its workspace.
type image struct {
	param string // where it was in the request: messages[0].content[1]
	name  string // its file name in uploadDir, random
	data  []byte
}

// mark is what the prompt says where the image was, before the workspace is known.
func (im image) mark() string { return uploadDir + "/" + im.name }

// takeImages replaces each image_url part of msgs by a text part naming the file it
// will be saved as, and returns the images to save.
func takeImages(msgs []native.OpenAIMessage) ([]image, *apiError) {
	var images []image
	for i := range msgs {
		raw := bytes.TrimSpace(msgs[i].Content)
		if len(raw) == 0 || raw[0] != '[' {
			continue
		}
		var parts []map[string]json.RawMessage
		if json.Unmarshal(raw, &parts) != nil {
			continue // MessagesFromOpenAI names the fault
		}
		changed := false
		for j, p := range parts {
			var typ string
			if json.Unmarshal(p["type"], &typ) != nil || typ != "image_url" {
				continue
			}
			param := fmt.Sprintf("messages[%d].content[%d]", i, j)
			im, aerr := readImage(param, p["image_url"])
			if aerr != nil {
				return nil, aerr
			}
			images = append(images, im)
			text, _ := json.Marshal("\n[See image: " + im.mark() + "]\n")
			parts[j] = map[string]json.RawMessage{"type": json.RawMessage(`"text"`), "text": text}
			changed = true
		}
		if changed {
			content, err := json.Marshal(parts)
			if err != nil {
				return nil, badRequest(fmt.Sprintf("messages[%d].content", i), "messages[%d].content: %v", i, err)
			}
			msgs[i].Content = content
		}
	}
	return images, nil
}

// readImage decodes an image_url object: {"url": "data:image/png;base64,...", "detail": ...}.
func readImage(param string, raw json.RawMessage) (image, *apiError) {
	var obj struct {
		URL string `json:"url"`
	}
	urlParam := param + ".image_url.url"
	if err := json.Unmarshal(raw, &obj); err != nil || obj.URL == "" {
		return image{}, badRequest(param+".image_url", `%s.image_url: want {"url": "data:image/png;base64,..."}`, param)
	}
	u := obj.URL
	lower := strings.ToLower(u[:min(len(u), 8)])
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		return image{}, withCode(badRequest(urlParam, "%s: this server does not fetch images (it would reach, on its own network, any address a request names): send the image inline as a data URL, data:image/png;base64,...", urlParam), "remote_image_refused")
	}
	head, payload, ok := strings.Cut(u, ",")
	if !ok || !strings.HasPrefix(strings.ToLower(head), "data:") || !strings.HasSuffix(strings.ToLower(head), ";base64") {
		return image{}, badRequest(urlParam, "%s: want a base64 data URL, data:image/png;base64,..., got %s", urlParam, quoteCut(u))
	}
	payload = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, payload)
	if base64.StdEncoding.DecodedLen(len(payload)) > maxImageBytes+3 {
		return image{}, badRequest(urlParam, "%s: the image is larger than %d MiB, the limit of one image", urlParam, maxImageBytes>>20)
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		if data, err = base64.RawStdEncoding.DecodeString(payload); err != nil {
			return image{}, badRequest(urlParam, "%s: the data is not base64: %v", urlParam, err)
		}
	}
	// The type is the data's own, whatever the URL says: the file's extension
	// tells the agent how to open it.
	typ := http.DetectContentType(data)
	ext, ok := imageTypes[typ]
	if !ok {
		return image{}, badRequest(urlParam, "%s: the data is %s, not an image: want PNG, JPEG, GIF or WebP", urlParam, typ)
	}
	return image{param: param, name: newID("upload_") + ext, data: data}, nil
}

// saveImages writes images into the workspace ws, through os.Root so that a link
// the agent left there cannot send them elsewhere, and returns the absolute path
// of each mark, and a function that removes them.
func saveImages(ws string, images []image) (paths map[string]string, remove func(), err error) {
	root, err := os.OpenRoot(ws)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	if err := root.Mkdir(uploadDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, nil, fmt.Errorf("make %s in the workspace: %w", uploadDir, err)
	}
	var written []string
	remove = func() {
		r, err := os.OpenRoot(ws)
		if err != nil {
			return
		}
		defer r.Close()
		for _, name := range written {
			_ = r.Remove(name)
		}
		_ = r.Remove(uploadDir) // only when empty: other runs may have theirs there
	}
	paths = map[string]string{}
	for _, im := range images {
		name := im.mark()
		f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			remove()
			return nil, nil, fmt.Errorf("save the image of %s: %w", im.param, err)
		}
		written = append(written, name)
		_, werr := f.Write(im.data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			remove()
			return nil, nil, fmt.Errorf("save the image of %s: %w", im.param, werr)
		}
		paths[name] = filepath.Join(ws, filepath.FromSlash(name))
	}
	return paths, remove, nil
}
