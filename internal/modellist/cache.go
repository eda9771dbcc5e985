package modellist

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// cached is one cache file: the list a base URL gave and when.
type cached struct {
	BaseURL   string    `json:"base_url"`
	FetchedAt time.Time `json:"fetched_at"`
	Models    []Model   `json:"models"`
}

// readCache returns the file's list when it is readable and belongs to key; a
// damaged file is as good as none: the list is fetched again and overwrites it.
func readCache(path, key string) (cached, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return cached{}, false
	}
	var c cached
	if json.Unmarshal(data, &c) != nil || c.BaseURL != key || c.FetchedAt.IsZero() {
		return cached{}, false
	}
	return c, true
}

// writeCache replaces the file atomically, so a reader never sees half a list.
func writeCache(path string, c cached) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".models-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
