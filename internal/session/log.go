package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// Log is an open session: the append end of its messages.jsonl and its meta.
// Its methods are safe for concurrent use. Close it when the session ends.
type Log struct {
	dir string
	now func() time.Time

	mu   sync.Mutex
	f    *os.File // opened O_APPEND; nil after Close
	size int64    // bytes known to be whole lines; a failed write is cut back to it
	meta Meta
	// metaDirty says meta holds counts newer than meta.json (see Append).
	metaDirty bool
	warnings  []string
}

// errClosed is returned by Append and UpdateMeta after Close.
var errClosed = errors.New("session log is closed")

func openLog(dir string, m Meta, now func() time.Time, warnings []string) (*Log, error) {
	path := filepath.Join(dir, messagesFile)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, fileMode)
	if err != nil {
		return nil, fmt.Errorf("open %s for appending: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s for appending: %w", path, err)
	}
	return &Log{dir: dir, now: now, f: f, size: st.Size(), meta: m, warnings: warnings}, nil
}

// ID is the session's ID.
func (l *Log) ID() string { return filepath.Base(l.dir) }

// Dir is the session's folder, for a "/log"-style command.
func (l *Log) Dir() string { return l.dir }

// Meta returns a copy of the current meta.
func (l *Log) Meta() Meta {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.meta
}

// Warnings lists what opening the session had to fix or migrate (a torn last line,
// a repaired history, a migrated old format), in words a face can show as is.
// It is empty for a healthy session.
func (l *Log) Warnings() []string { return slices.Clone(l.warnings) }

// Append writes one line per message and fsyncs before returning, so a crash loses
// at most the line being written. It keeps message_count and updated_at in memory
// and writes meta.json only when the title is first set (from the first
// non-synthetic user message); UpdateMeta and Close write the rest. Rewriting
// meta.json on every append cost three fsyncs each and was most of a headless
// run's session overhead (docs/benchmarks.md); after a crash Open recounts the
// messages from the log, which is the truth. Usage and cost are the caller's to set
// through UpdateMeta.
//
// If the write fails part-way the file is cut back to its last whole line, so a
// later Append never lands after half a message.
func (l *Log) Append(msgs ...llm.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <, > and & readable for grep
	for i := range msgs {
		if err := enc.Encode(&msgs[i]); err != nil {
			return fmt.Errorf("session %s: encode message %d: %w", l.ID(), i, err)
		}
	}

	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("append to session %s: %w", l.ID(), errClosed)
	}
	path := l.f.Name()
	if _, err := l.f.Write(buf.Bytes()); err != nil {
		if terr := l.f.Truncate(l.size); terr != nil {
			err = errors.Join(err, fmt.Errorf("cut back to last whole line: %w", terr))
		}
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("append to %s: fsync: %w", path, err)
	}
	l.size += int64(buf.Len())

	l.meta.MessageCount += len(msgs)
	titled := false
	if l.meta.Title == "" {
		for _, m := range msgs {
			if m.Role == llm.RoleUser && !m.Synthetic && m.Content != "" {
				l.meta.Title = Title(m.Content)
				titled = true
				break
			}
		}
	}
	l.meta.UpdatedAt = l.now().UTC()
	l.metaDirty = true
	if titled {
		if err := writeMeta(l.dir, l.meta); err != nil {
			return fmt.Errorf("messages saved, but: %w", err)
		}
		l.metaDirty = false
	}
	return nil
}

// UpdateMeta applies fn to the meta and replaces meta.json atomically (temp file,
// fsync, rename, fsync of the folder). The fields the Log owns (schema_version, id,
// created_at, message_count) are restored after fn, and updated_at is set to now.
// If the write fails, the in-memory meta is left as it was.
func (l *Log) UpdateMeta(fn func(*Meta)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("update meta of session %s: %w", l.ID(), errClosed)
	}
	m := l.meta
	fn(&m)
	m.SchemaVersion, m.ID, m.CreatedAt, m.MessageCount =
		l.meta.SchemaVersion, l.meta.ID, l.meta.CreatedAt, l.meta.MessageCount
	m.UpdatedAt = l.now().UTC()
	if err := writeMeta(l.dir, m); err != nil {
		return err
	}
	l.meta = m
	l.metaDirty = false
	return nil
}

// Close releases the log file. Appends after Close fail; Close is idempotent.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	var err error
	if l.metaDirty {
		err = writeMeta(l.dir, l.meta)
		l.metaDirty = false
	}
	err = errors.Join(err, l.f.Close())
	l.f = nil
	if err != nil {
		return fmt.Errorf("close session %s: %w", l.ID(), err)
	}
	return nil
}
