package telegram

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgsend"
)

// sendFileTag is the agent's way to send a file: [SEND_FILE: relative/path].
// Non-greedy and on one line, so two tags never merge.
var sendFileTag = regexp.MustCompile(`\[SEND_FILE:[ \t]*([^\]\n]*?)[ \t]*\]`)

// extractSendFiles returns text without its SEND_FILE tags, and their paths in
// order. Blank lines left by a tag alone on its line are squeezed.
func extractSendFiles(text string) (string, []string) {
	var paths []string
	for _, m := range sendFileTag.FindAllStringSubmatch(text, -1) {
		if p := strings.TrimSpace(m[1]); p != "" {
			paths = append(paths, p)
		}
	}
	if paths == nil && !sendFileTag.MatchString(text) {
		return text, nil
	}
	out := sendFileTag.ReplaceAllString(text, "")
	lines := strings.Split(out, "\n")
	kept := lines[:0]
	for i, l := range lines {
		if strings.TrimSpace(l) == "" && i > 0 && len(kept) > 0 && strings.TrimSpace(kept[len(kept)-1]) == "" {
			continue
		}
		kept = append(kept, strings.TrimRight(l, " \t"))
	}
	return strings.TrimSpace(strings.Join(kept, "\n")), paths
}

// errOutside is a path that leaves the chat's workspace.
var errOutside = errors.New("outside this chat's workspace")

// openInWorkspace opens the file rel names inside the workspace ws, and nowhere
// else: no "..", no absolute path elsewhere, no symbolic link that leads out
// (os.Root resolves links and refuses those). The original checked against the
// root of every workspace, so a chat could fetch another chat's files.
func openInWorkspace(ws, rel string) (*os.File, fs.FileInfo, error) {
	name := rel
	if filepath.IsAbs(name) {
		r, err := filepath.Rel(ws, name)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return nil, nil, errOutside
		}
		name = r
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	f, err := root.Open(filepath.Clean(name))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
			return nil, nil, errOutside // os.Root's "path escapes from parent"
		}
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// resolveInWorkspace is openInWorkspace for a caller that needs a path: the
// file's real path, links resolved, checked to be inside ws (itself resolved,
// as workspace.Root gives it).
func resolveInWorkspace(ws, rel string) (string, fs.FileInfo, error) {
	f, info, err := openInWorkspace(ws, rel)
	if err != nil {
		return "", nil, err
	}
	f.Close()
	name := rel
	if !filepath.IsAbs(name) {
		name = filepath.Join(ws, name)
	}
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return "", nil, err
	}
	if r, err := filepath.Rel(ws, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", nil, errOutside
	}
	return real, info, nil
}

// checkSendable says why a file cannot be sent, in the chat's words, or "".
func checkSendable(rel string, info fs.FileInfo) string {
	switch {
	case info.IsDir():
		return "is a folder, not a file: " + rel
	case !info.Mode().IsRegular():
		return "not a regular file: " + rel
	case info.Size() == 0:
		return "file is empty: " + rel
	case info.Size() > tgsend.MaxUpload:
		return fmt.Sprintf("file too large (%d bytes, Telegram takes up to %d): %s", info.Size(), tgsend.MaxUpload, rel)
	}
	return ""
}

// openError says in the chat's words why rel could not be opened.
func openError(rel string, err error) string {
	switch {
	case errors.Is(err, errOutside):
		return "refused, outside this chat's workspace: " + rel
	case errors.Is(err, fs.ErrNotExist):
		return "not found: " + rel
	case errors.Is(err, fs.ErrPermission):
		return "not readable: " + rel
	}
	return fmt.Sprintf("cannot open %s: %v", rel, err)
}
