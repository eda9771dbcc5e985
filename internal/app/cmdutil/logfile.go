package cmdutil

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
)

// maxLogBytes caps the log file: past it the file is started afresh, keeping one old
// copy (10 MiB, the original tool's default).
const maxLogBytes = 10 << 20

// OpenLogFile sends slog records (tool panics with their stacks, provider details) to
// <home>/logs/albert-code.log, so they never mix with what a face prints. If the file
// cannot be opened, logs are dropped rather than printed over the output.
func OpenLogFile(home string) (closeFn func()) {
	dir := filepath.Join(home, "logs")
	path := filepath.Join(dir, "albert-code.log")
	var w io.Writer = io.Discard
	closeFn = func() {}
	if err := os.MkdirAll(dir, 0o700); err == nil {
		if st, err := os.Stat(path); err == nil && st.Size() > maxLogBytes {
			_ = os.Rename(path, path+".1")
		}
		if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
			w, closeFn = f, func() { _ = f.Close() }
		}
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo})))
	return closeFn
}
