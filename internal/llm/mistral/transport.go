package mistral

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// transport adapts openaicompat's requests and Mistral's answers on the way; see
// rewriteRequest, streamRewriter and rewriteErrorBody.
type transport struct {
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/chat/completions") || req.Body == nil {
		return t.base.RoundTrip(req)
	}
	raw, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, err
	}
	body, err := rewriteRequest(raw)
	if err != nil {
		return nil, err
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.Header.Set("Content-Length", strconv.Itoa(len(body)))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	res, err := t.base.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	if res.StatusCode >= 400 {
		errBody, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		_ = res.Body.Close()
		fixed := rewriteErrorBody(errBody)
		res.Body = io.NopCloser(bytes.NewReader(fixed))
		res.ContentLength = int64(len(fixed))
		return res, nil
	}
	res.Body = newStreamRewriter(res.Body)
	return res, nil
}
