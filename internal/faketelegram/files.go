package faketelegram

import (
	"fmt"
	"mime"
	"net/http"
	"path"
	"strings"
)

// The cloud Bot API's file limits: bots download at most 20 MB through
// getFile; photos upload at most 10 MB (larger ones go as documents).
const (
	maxDownload = 20 << 20
	maxPhoto    = 10 << 20
)

type storedFile struct {
	id, path, name string
	data           []byte
}

// AddFile stores a file as if a user had sent it, and returns its file_id for
// getFile and for updates built with SendUpdate.
func (s *Server) AddFile(name string, content []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addFileLocked(name, content, "documents")
}

func (s *Server) addFileLocked(name string, content []byte, folder string) string {
	s.nextFileID++
	id := fmt.Sprintf("BQACAgIAAx%06d", s.nextFileID)
	ext := path.Ext(name)
	s.files[id] = &storedFile{id: id, name: name, data: content, path: fmt.Sprintf("%s/file_%d%s", folder, s.nextFileID, ext)}
	return id
}

func mimeOf(name string) string {
	if t := mime.TypeByExtension(strings.ToLower(path.Ext(name))); t != "" {
		t, _, _ = strings.Cut(t, ";")
		return t
	}
	return "application/octet-stream"
}

// SendDocument queues a document from userID in chatID, with a caption, and
// returns the message id; getFile and the file link serve content.
func (s *Server) SendDocument(chatID, userID int64, name string, content []byte, caption string) int64 {
	return s.sendUserFile(chatID, userID, "document", name, content, caption)
}

// SendPhoto queues a photo (its largest size only) with a caption.
func (s *Server) SendPhoto(chatID, userID int64, content []byte, caption string) int64 {
	return s.sendUserFile(chatID, userID, "photo", "photo.jpg", content, caption)
}

// SendVideo queues a video with a caption.
func (s *Server) SendVideo(chatID, userID int64, name string, content []byte, caption string) int64 {
	return s.sendUserFile(chatID, userID, "video", name, content, caption)
}

// SendVoice queues a voice note (OGG/Opus in the real API).
func (s *Server) SendVoice(chatID, userID int64, content []byte, caption string) int64 {
	return s.sendUserFile(chatID, userID, "voice", "voice.ogg", content, caption)
}

func (s *Server) sendUserFile(chatID, userID int64, kind, name string, content []byte, caption string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.addFileLocked(name, content, kind+"s")
	msg := s.userMessageLocked(chatID, userID)
	file := map[string]any{"file_id": id, "file_unique_id": "u" + id, "file_size": len(content)}
	switch kind {
	case "photo":
		file["width"], file["height"] = 1280, 960
		msg["photo"] = []any{
			map[string]any{"file_id": id + "s", "file_unique_id": "u" + id + "s", "width": 90, "height": 67, "file_size": 1000},
			file,
		}
	case "voice":
		file["duration"], file["mime_type"] = 3, "audio/ogg"
		msg["voice"] = file
	case "video":
		file["width"], file["height"], file["duration"] = 640, 360, 1
		file["file_name"], file["mime_type"] = name, mimeOf(name)
		msg["video"] = file
	default:
		file["file_name"], file["mime_type"] = name, mimeOf(name)
		msg["document"] = file
	}
	if caption != "" {
		msg["caption"] = caption
	}
	s.queueLocked("message", map[string]any{"message": msg})
	return msg["message_id"].(int64)
}

// sendFile answers sendDocument, sendPhoto and sendVideo; field is the
// multipart field holding the file.
func (s *Server) sendFile(p *params, field string) (any, *apiError) {
	chatID, aerr := s.chatID(p)
	if aerr != nil {
		return nil, aerr
	}
	upload, uploaded := p.files[field]
	if !uploaded {
		ref := p.values[field]
		if ref == "" {
			return nil, badRequest("there is no " + field + " in the request")
		}
		s.mu.Lock()
		f := s.files[ref]
		s.mu.Unlock()
		if f == nil {
			if strings.HasPrefix(ref, "http://") || strings.HasPrefix(ref, "https://") {
				return nil, badRequest("failed to get HTTP URL content")
			}
			return nil, badRequest("wrong file identifier/HTTP URL specified")
		}
		upload = File{Name: f.name, Data: f.data}
	}
	if len(upload.Data) == 0 {
		return nil, badRequest("file must be non-empty")
	}
	if field == "photo" && len(upload.Data) > maxPhoto {
		return nil, badRequest("PHOTO_INVALID_DIMENSIONS")
	}
	caption, mode := p.values["caption"], p.values["parse_mode"]
	plain, aerr := visibleText(caption, mode)
	if aerr != nil {
		return nil, aerr
	}
	if utf16Len(plain) > maxCaption {
		return nil, badRequest("message caption is too long")
	}
	method := "send" + strings.ToUpper(field[:1]) + field[1:]
	m := &Sent{Method: method, Text: caption, ParseMode: mode, Plain: plain, FileName: upload.Name, File: upload.Data}
	return s.post(p, chatID, m, func() { m.FileID = s.addFileLocked(upload.Name, upload.Data, field+"s") })
}

func (s *Server) getFile(p *params) (any, *apiError) {
	id := p.values["file_id"]
	if id == "" {
		return nil, badRequest("file_id is empty")
	}
	s.mu.Lock()
	f := s.files[id]
	s.mu.Unlock()
	if f == nil {
		return nil, badRequest("invalid file_id")
	}
	if len(f.data) > maxDownload {
		return nil, badRequest("file is too big")
	}
	return map[string]any{"file_id": f.id, "file_unique_id": "u" + f.id, "file_size": len(f.data), "file_path": f.path}, nil
}

func (s *Server) download(w http.ResponseWriter, filePath string) {
	s.mu.Lock()
	var found *storedFile
	for _, f := range s.files {
		if f.path == filePath {
			found = f
		}
	}
	s.mu.Unlock()
	if found == nil || len(found.data) > maxDownload {
		writeError(w, apiError{Code: http.StatusNotFound, Description: "Not Found"})
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(found.data)
}
