package input

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// HistoryFile is the prompt history's name in the application home.
const HistoryFile = "prompt_history.jsonl"

// historyLimit is how many prompts are kept. Judgement: a few weeks of use, and
// small enough to load in well under a millisecond.
const historyLimit = 1000

// History is the prompts sent in every session, oldest first, kept in a file of
// one JSON string per line so multi-line prompts survive.
type History struct {
	path      string
	entries   []string
	fileLines int
}

// LoadHistory reads the history in home; a missing file is an empty history and
// unreadable lines are skipped (a crash may cut the last one).
func LoadHistory(home string) (*History, error) {
	h := &History{}
	if home == "" {
		return h, nil
	}
	h.path = filepath.Join(home, HistoryFile)
	f, err := os.Open(h.path)
	if errors.Is(err, fs.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return h, fmt.Errorf("read prompt history: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		h.fileLines++
		var s string
		if json.Unmarshal(sc.Bytes(), &s) == nil && s != "" {
			h.entries = append(h.entries, s)
		}
	}
	if len(h.entries) > historyLimit {
		h.entries = h.entries[len(h.entries)-historyLimit:]
	}
	return h, sc.Err()
}

// Len is the number of prompts.
func (h *History) Len() int { return len(h.entries) }

// At returns prompt i, 0 being the oldest.
func (h *History) At(i int) string { return h.entries[i] }

// Add records a prompt in memory and appends it to the file. A prompt equal to the
// previous one is not repeated. When the file has grown to twice the limit it is
// rewritten with the latest entries only.
func (h *History) Add(s string) error {
	if s == "" || len(h.entries) > 0 && h.entries[len(h.entries)-1] == s {
		return nil
	}
	h.entries = append(h.entries, s)
	if len(h.entries) > historyLimit {
		h.entries = h.entries[len(h.entries)-historyLimit:]
	}
	if h.path == "" {
		return nil
	}
	if h.fileLines >= 2*historyLimit {
		return h.rewrite()
	}
	h.fileLines++
	line, _ := json.Marshal(s)
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return fmt.Errorf("save prompt history: %w", err)
	}
	f, err := os.OpenFile(h.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("save prompt history: %w", err)
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("save prompt history: %w", err)
	}
	return nil
}

// rewrite replaces the file with the entries in memory, atomically.
func (h *History) rewrite() error {
	var buf []byte
	for _, e := range h.entries {
		line, _ := json.Marshal(e)
		buf = append(append(buf, line...), '\n')
	}
	tmp := h.path + ".tmp"
	if err := os.WriteFile(tmp, buf, 0o600); err != nil {
		return fmt.Errorf("save prompt history: %w", err)
	}
	if err := os.Rename(tmp, h.path); err != nil {
		return fmt.Errorf("save prompt history: %w", err)
	}
	h.fileLines = len(h.entries)
	return nil
}
