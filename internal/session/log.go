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

	// Background fsync of messages.jsonl (see Append): syncing while a goroutine
	// runs, resync when appends came in during its fsync, syncErr the first failure
	// (reported by the next Flush), synced signalled when the goroutine stops.
	syncing, resync bool
	syncErr         error
	synced          *sync.Cond
	// pendingCreate, set by Store.Create, makes the new session durable (its
	// meta.json and the folder entries) before the first fsync of the log.
	pendingCreate func() error
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
	l := &Log{dir: dir, now: now, f: f, size: st.Size(), meta: m, warnings: warnings}
	l.synced = sync.NewCond(&l.mu)
	return l, nil
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

// Append writes one line per message with a single write before returning, so a
// crash of the process loses nothing: the bytes are the kernel's. The fsync that makes
// them survive a crash of the machine runs in the background, coalescing the appends
// that arrive meanwhile, so the agent does not wait on the disk at every message;
// Flush, UpdateMeta and Close wait for it. After a machine crash the log is a prefix
// of what was appended, possibly ending in a torn line that Open sets aside.
// It keeps message_count and updated_at in memory
// and writes meta.json only when the title is first set (from the first
// non-synthetic user message); UpdateMeta and Close write the rest. Rewriting
// meta.json on every append cost three fsyncs each and was most of a headless
// run's session overhead (docs/benchmarks/agent-overhead.md); after a crash Open recounts the
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
	l.size += int64(buf.Len())
	l.scheduleSync()
	if err := l.syncErr; err != nil {
		l.syncErr = nil
		return fmt.Errorf("messages written, but an earlier %w", err)
	}

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
		if err := writeMeta(l.dir, l.meta, deferred); err != nil {
			return fmt.Errorf("messages saved, but: %w", err)
		}
		markLatest(l.dir, l.meta)
		l.metaDirty = false
	}
	return nil
}

// UpdateMeta applies fn to the meta and replaces meta.json atomically (temp file,
// rename) once every appended message is fsynced. The new meta.json itself is not
// fsynced: a run saves its totals this way at every end, and after a machine crash an
// older meta.json, or an empty one that Open rebuilds from the log, loses nothing the
// log does not hold. The fields the Log owns (schema_version, id, created_at,
// message_count) are restored after fn, and updated_at is set to now. If the write
// fails, the in-memory meta is left as it was.
func (l *Log) UpdateMeta(fn func(*Meta)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("update meta of session %s: %w", l.ID(), errClosed)
	}
	// The meta must never count messages the disk might not have.
	if err := l.waitSynced(); err != nil {
		return err
	}
	m := l.meta
	fn(&m)
	m.SchemaVersion, m.ID, m.CreatedAt, m.MessageCount =
		l.meta.SchemaVersion, l.meta.ID, l.meta.CreatedAt, l.meta.MessageCount
	m.UpdatedAt = l.now().UTC()
	if err := writeMeta(l.dir, m, deferred); err != nil {
		return err
	}
	markLatest(l.dir, m)
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
	err := l.waitSynced()
	if l.metaDirty {
		if werr := writeMeta(l.dir, l.meta, deferred); werr != nil {
			err = errors.Join(err, werr)
		} else {
			markLatest(l.dir, l.meta)
		}
		l.metaDirty = false
	}
	err = errors.Join(err, l.f.Close())
	l.f = nil
	if err != nil {
		return fmt.Errorf("close session %s: %w", l.ID(), err)
	}
	return nil
}

// Flush waits until every message appended so far is fsynced, and reports a failed
// background fsync.
func (l *Log) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waitSynced()
}

// scheduleSync starts the background fsync, or asks the running one to go again.
// Called with mu held.
func (l *Log) scheduleSync() {
	if l.syncing {
		l.resync = true
		return
	}
	l.syncing = true
	go l.syncLoop(l.f)
}

func (l *Log) syncLoop(f *os.File) {
	l.mu.Lock()
	create := l.pendingCreate
	l.pendingCreate = nil
	l.mu.Unlock()
	for {
		var err error
		if create != nil {
			err, create = create(), nil
		}
		err = errors.Join(err, f.Sync())
		l.mu.Lock()
		if err != nil && l.syncErr == nil {
			l.syncErr = fmt.Errorf("fsync %s: %w", f.Name(), err)
		}
		if !l.resync {
			l.syncing = false
			l.synced.Broadcast()
			l.mu.Unlock()
			return
		}
		l.resync = false
		l.mu.Unlock()
	}
}

// waitSynced blocks until no fsync is pending and returns (and clears) the first
// fsync failure. Called with mu held.
func (l *Log) waitSynced() error {
	for l.syncing {
		l.synced.Wait()
	}
	err := l.syncErr
	l.syncErr = nil
	return err
}
