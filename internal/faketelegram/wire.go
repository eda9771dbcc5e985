package faketelegram

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxUpload is the cloud Bot API's cap on a bot's upload: 50 MB.
const maxUpload = 50 << 20

// Call is one request the server answered.
type Call struct {
	Method string
	// Params holds every parameter as text; JSON values that are not strings
	// (reply_parameters, reply_markup, commands) keep their JSON text.
	Params map[string]string
	// Files are the multipart file parts, by field name.
	Files map[string]File
	// Status is the HTTP status answered, Error the description of a refusal.
	Status int
	Error  string
	At     time.Time
}

// File is an uploaded or stored file.
type File struct {
	Name string
	Data []byte
}

type params struct {
	values map[string]string
	files  map[string]File
}

func (p *params) int64(name string) (int64, bool) {
	v, err := strconv.ParseInt(strings.TrimSpace(p.values[name]), 10, 64)
	return v, err == nil
}

// apiError is an error envelope.
type apiError struct {
	Code        int
	Description string
	RetryAfter  int
}

func badRequest(what string) *apiError {
	return &apiError{Code: http.StatusBadRequest, Description: "Bad Request: " + what}
}

func writeResult(w http.ResponseWriter, result any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

func writeError(w http.ResponseWriter, e apiError) {
	body := map[string]any{"ok": false, "error_code": e.Code, "description": e.Description}
	if e.RetryAfter > 0 {
		body["parameters"] = map[string]any{"retry_after": e.RetryAfter}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Code)
	_ = json.NewEncoder(w).Encode(body)
}

// readParams merges the query string with the body in any of the encodings
// the Bot API accepts.
func readParams(w http.ResponseWriter, r *http.Request) (*params, *apiError) {
	p := &params{values: map[string]string{}, files: map[string]File{}}
	for k, v := range r.URL.Query() {
		p.values[k] = v[0]
	}
	if r.Method != http.MethodPost {
		return p, nil
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxUpload+1<<20)
	ctype, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var err error
	switch ctype {
	case "application/json":
		err = readJSON(r.Body, p)
	case "application/x-www-form-urlencoded":
		if err = r.ParseForm(); err == nil {
			for k, v := range r.PostForm {
				p.values[k] = v[0]
			}
		}
	case "multipart/form-data":
		err = readMultipart(r, p)
	case "":
	default:
		return nil, badRequest(fmt.Sprintf("unsupported Content-Type %q", ctype))
	}
	if err != nil {
		if _, big := errors.AsType[*http.MaxBytesError](err); big {
			return nil, &apiError{Code: http.StatusRequestEntityTooLarge, Description: "Request Entity Too Large"}
		}
		return nil, badRequest("can't read the request: " + err.Error())
	}
	return p, nil
}

func readJSON(body io.Reader, p *params) error {
	var m map[string]json.RawMessage
	if err := json.NewDecoder(body).Decode(&m); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	for k, raw := range m {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			p.values[k] = s
		} else {
			p.values[k] = string(raw)
		}
	}
	return nil
}

func readMultipart(r *http.Request, p *params) error {
	mr, err := r.MultipartReader()
	if err != nil {
		return err
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return err
		}
		if part.FileName() != "" {
			p.files[part.FormName()] = File{Name: part.FileName(), Data: data}
		} else {
			p.values[part.FormName()] = string(data)
		}
	}
}

// fault is a failure FailNext queued for a method.
type fault struct {
	code        int
	description string
	retryAfter  int
}

// FailNext makes the next call of method (case-insensitive) fail with code:
// 502 answers a proxy's HTML page, as nginx in front of the Bot API does;
// any other code answers an error envelope whose description defaults to
// Telegram's wording, with parameters.retry_after when retryAfter > 0.
// Calls queue faults: each call consumes one.
func (s *Server) FailNext(method string, code int, description string, retryAfter int) {
	if description == "" {
		switch code {
		case http.StatusTooManyRequests:
			description = fmt.Sprintf("Too Many Requests: retry after %d", retryAfter)
		case http.StatusBadRequest:
			description = "Bad Request"
		default:
			description = http.StatusText(code)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := strings.ToLower(method)
	s.faults[m] = append(s.faults[m], fault{code: code, description: description, retryAfter: retryAfter})
}

func (s *Server) takeFault(method string) (fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := strings.ToLower(method)
	q := s.faults[m]
	if len(q) == 0 {
		return fault{}, false
	}
	s.faults[m] = q[1:]
	return q[0], true
}

func (f fault) write(w http.ResponseWriter) {
	if f.code == http.StatusBadGateway {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(f.code)
		_, _ = io.WriteString(w, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
		return
	}
	writeError(w, apiError{Code: f.code, Description: f.description, RetryAfter: f.retryAfter})
}
