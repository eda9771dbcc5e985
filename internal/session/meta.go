package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// SchemaVersion is the version of the on-disk format this package writes. Version 1
// is the original Python tool's layout, migrated on first read (see migrate.go).
const SchemaVersion = 2

// File names inside a session folder.
const (
	messagesFile = "messages.jsonl"
	metaFile     = "meta.json"
	// tornSuffix names the file where the bytes of a torn last line are kept, so
	// that repairing the log never destroys data a person might want to inspect.
	tornSuffix = ".torn"
	bakSuffix  = ".bak"
)

// Meta describes a session: what List shows and what resuming needs besides the
// messages. It is stored as meta.json.
type Meta struct {
	SchemaVersion int    `json:"schema_version"`
	ID            string `json:"id"`
	// Title is the first user message, shortened by Title.
	Title string `json:"title,omitempty"`
	// Cwd is the directory the session was started in; Latest and the resume
	// picker match it against the current directory.
	Cwd     string `json:"cwd"`
	Model   string `json:"model,omitempty"`
	Profile string `json:"profile,omitempty"`
	// CreatedAt and UpdatedAt are UTC. UpdatedAt moves on every Append and UpdateMeta.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// MessageCount is the number of lines in messages.jsonl, kept by the Log.
	MessageCount int       `json:"message_count"`
	Usage        llm.Usage `json:"usage"`
	// Cost is the estimated cost in euros; the caller computes it from its prices.
	Cost float64 `json:"cost"`
	// ParentID is set on a sub-agent's session and names the session that spawned it.
	ParentID  string `json:"parent_id,omitempty"`
	GitBranch string `json:"git_branch,omitempty"`
	GitCommit string `json:"git_commit,omitempty"`
}

// ErrNewerSchema reports a session written by a newer albert-code; it is left untouched.
var ErrNewerSchema = errors.New("session written by a newer albert-code")

// titleRunes is the longest title, in characters, a session list can show on one
// line next to the ID and date. Chosen by judgement; the original used 50.
const titleRunes = 60

// Title turns the first user message into a one-line title of at most 60 characters:
// whitespace runs (newlines included) become one space, and a longer text is cut at a
// word boundary when one is near, ending with "…".
func Title(firstUserText string) string {
	s := strings.Join(strings.FieldsFunc(firstUserText, unicode.IsSpace), " ")
	r := []rune(s)
	if len(r) <= titleRunes {
		return s
	}
	cut := r[:titleRunes-1]
	// Prefer a word boundary if it keeps at least two thirds of the room.
	if i := lastSpace(cut); i >= titleRunes*2/3 {
		cut = cut[:i]
	}
	return strings.TrimRightFunc(string(cut), unicode.IsSpace) + "…"
}

func lastSpace(r []rune) int {
	for i := len(r) - 1; i >= 0; i-- {
		if r[i] == ' ' {
			return i
		}
	}
	return -1
}

// metaVersion reads only schema_version; 0 means the field is absent (version 1).
func metaVersion(data []byte) (int, error) {
	var v struct {
		SchemaVersion int `json:"schema_version"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return 0, err
	}
	return v.SchemaVersion, nil
}

// readMeta reads the meta.json of the session folder dir, migrating a version 1
// session in place first. Warnings describe what a migration did.
func readMeta(dir string) (Meta, []string, error) {
	path := filepath.Join(dir, metaFile)
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Meta{}, nil, fmt.Errorf("%s is missing (the session folder is incomplete): delete the folder if it holds nothing you need", path)
		}
		return Meta{}, nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(bytes.Trim(data, "\x00 \t\r\n")) == 0 {
		// Meta rewrites are not fsynced (see Log.UpdateMeta): after a machine crash
		// some file systems leave the renamed file empty. The log is the truth.
		return rebuildMeta(dir)
	}
	version, err := metaVersion(data)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("read %s: not valid JSON (%v): fix or delete the file", path, err)
	}
	switch {
	case version > SchemaVersion:
		return Meta{}, nil, fmt.Errorf("%s: schema_version %d (this albert-code reads up to %d): upgrade albert-code: %w",
			path, version, SchemaVersion, ErrNewerSchema)
	case version < SchemaVersion:
		m, warn, err := migrateV1(dir)
		if err != nil {
			return Meta{}, nil, err
		}
		return m, []string{warn}, nil
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return Meta{}, nil, fmt.Errorf("read %s: %v: fix or delete the file", path, err)
	}
	// The folder name is the ID users type; trust it over a hand-edited field.
	m.ID = filepath.Base(dir)
	return m, nil, nil
}

func writeMeta(dir string, m Meta, d durability) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode meta of session %s: %w", m.ID, err)
	}
	return writeFileAtomic(filepath.Join(dir, metaFile), append(data, '\n'), d)
}

// rebuildMeta recreates a lost meta.json from messages.jsonl: the title from the first
// message a person wrote, usage from the answers' reported usage, the times from the
// log file. The working directory and the cost are not in the log: the session can
// still be resumed by ID, and the warning says what was lost.
func rebuildMeta(dir string) (Meta, []string, error) {
	logPath := filepath.Join(dir, messagesFile)
	msgs, warnings, err := loadMessages(logPath)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("rebuild %s from the log: %w", filepath.Join(dir, metaFile), err)
	}
	st, err := os.Stat(logPath)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("rebuild %s from the log: %w", filepath.Join(dir, metaFile), err)
	}
	m := Meta{SchemaVersion: SchemaVersion, ID: filepath.Base(dir), MessageCount: len(msgs),
		CreatedAt: st.ModTime().UTC(), UpdatedAt: st.ModTime().UTC()}
	for _, msg := range msgs {
		if m.Title == "" && msg.Role == llm.RoleUser && !msg.Synthetic && msg.Content != "" {
			m.Title = Title(msg.Content)
		}
		if msg.Usage != nil {
			m.Usage.Add(*msg.Usage)
		}
	}
	if err := writeMeta(dir, m, durable); err != nil {
		return Meta{}, nil, err
	}
	return m, append(warnings, fmt.Sprintf("%s was empty (a machine crash?): rebuilt from the log; the working directory and the cost were lost",
		filepath.Join(dir, metaFile))), nil
}
