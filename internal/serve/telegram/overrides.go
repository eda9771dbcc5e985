package telegram

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Override keys, as the commands and the file name them.
const (
	KeyModel              = "model"
	KeyEffort             = "effort"
	KeySystemPrompt       = "system_prompt"
	KeyAppendSystemPrompt = "append_system_prompt"
)

// Overrides are the per-chat settings changed from the chat (/model...), kept in
// a JSON file in the original's format: {"<chat id>": {"model": "..."}}. Every
// change rewrites the file atomically, so a crash leaves the old or the new one.
type Overrides struct {
	path string
	mu   sync.Mutex
	byID map[int64]map[string]string
}

// LoadOverrides reads the overrides file at path; a missing file is empty. A file
// that does not parse is an error: starting empty would overwrite it at the
// first change, and the chats' settings would be lost.
func LoadOverrides(path string) (*Overrides, error) {
	o := &Overrides{path: path, byID: map[int64]map[string]string{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return o, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the telegram overrides: %w", err)
	}
	var raw map[string]map[string]string
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("telegram overrides %s: not a JSON object of chat ids to {key: value} (%v): fix or remove the file", path, err)
	}
	for k, v := range raw {
		id, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("telegram overrides %s: %q is not a chat id: fix or remove the file", path, k)
		}
		if len(v) > 0 {
			o.byID[id] = v
		}
	}
	return o, nil
}

// Get returns chat's overrides (a copy).
func (o *Overrides) Get(chat int64) map[string]string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return maps.Clone(o.byID[chat])
}

// Set stores key for chat, or clears it when value is empty, and saves the file.
// The change is kept in memory only if the file is written.
func (o *Overrides) Set(chat int64, key, value string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	next := maps.Clone(o.byID)
	bucket := maps.Clone(next[chat])
	if bucket == nil {
		bucket = map[string]string{}
	}
	if value == "" {
		delete(bucket, key)
	} else {
		bucket[key] = value
	}
	if len(bucket) == 0 {
		delete(next, chat)
	} else {
		next[chat] = bucket
	}
	if err := o.save(next); err != nil {
		return err
	}
	o.byID = next
	return nil
}

func (o *Overrides) save(byID map[int64]map[string]string) error {
	raw := make(map[string]map[string]string, len(byID))
	for id, v := range byID {
		raw[strconv.FormatInt(id, 10)] = v
	}
	data, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		return err
	}
	if err := writeAtomic(o.path, data); err != nil {
		return fmt.Errorf("save the telegram overrides: %w", err)
	}
	return nil
}

// writeAtomic writes data to a temporary file beside path, syncs it, and renames
// it over path.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // fails harmlessly once renamed
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
