package providertest

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"
)

// CaptureLog sends the default logger to memory until the test ends and returns
// a function listing the records written so far. It changes a global: call it
// only from tests that are not parallel.
func CaptureLog(t *testing.T) func() []map[string]any {
	t.Helper()
	w := &lockedBuffer{}
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(w, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return func() []map[string]any {
		var out []map[string]any
		for _, line := range bytes.Split(w.bytes(), []byte("\n")) {
			var rec map[string]any
			if json.Unmarshal(line, &rec) == nil {
				out = append(out, rec)
			}
		}
		return out
	}
}

// ErrorLogged reports whether records hold a "model server error" with status.
func ErrorLogged(records []map[string]any, status int) bool {
	for _, r := range records {
		if r["msg"] == "model server error" && r["status"] == float64(status) && r["body"] != "" {
			return true
		}
	}
	return false
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}
