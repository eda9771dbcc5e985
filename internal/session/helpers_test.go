package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// fakeClock starts at a fixed instant and moves one second per reading, so every
// Create, Append and UpdateMeta gets a distinct, predictable time.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

func newTestStore(t *testing.T) *Store {
	t.Helper()
	s := NewStore(filepath.Join(t.TempDir(), "sessions"))
	c := &fakeClock{t: time.Date(2026, 11, 30, 4, 52, 0, 0, time.UTC)}
	s.now = c.Now
	return s
}

func mustCreate(t *testing.T, s *Store, m Meta) *Log {
	t.Helper()
	l, err := s.Create(m)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func mustOpen(t *testing.T, s *Store, ref string) (*Log, []llm.Message) {
	t.Helper()
	l, msgs, err := s.Open(ref)
	if err != nil {
		t.Fatalf("Open(%q): %v", ref, err)
	}
	t.Cleanup(func() { l.Close() })
	return l, msgs
}

// mkSession writes a session folder by hand, for tests that need chosen IDs.
func mkSession(t *testing.T, s *Store, m Meta) {
	t.Helper()
	dir := filepath.Join(s.Dir(), m.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	m.SchemaVersion = SchemaVersion
	if err := writeMeta(dir, m, durable); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, messagesFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// checkLines fails unless every line of the file is a whole message and the file
// ends with a newline: the invariant that makes the next Append safe.
func checkLines(t *testing.T, path string, want int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Errorf("%s does not end with a newline", path)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(data) == 0 {
		lines = nil
	}
	if len(lines) != want {
		t.Errorf("%s has %d lines, want %d", path, len(lines), want)
	}
	for i, line := range lines {
		var m llm.Message
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.Role == "" {
			t.Errorf("%s:%d is not a message: %q", path, i+1, line)
		}
	}
}

func user(text string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: text} }

func assistant(text string, callIDs ...string) llm.Message {
	m := llm.Message{Role: llm.RoleAssistant, Content: text}
	for _, id := range callIDs {
		m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: id, Name: "tool_" + id, Arguments: `{"n":1}`})
	}
	return m
}

func result(id string) llm.Message {
	return llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: "tool_" + id, Content: "ok " + id}
}

func synthetic(id string) llm.Message {
	return llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: "tool_" + id, Content: interruptedText, IsError: true, Synthetic: true}
}
