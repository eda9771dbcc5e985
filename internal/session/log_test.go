package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

func sampleHistory() []llm.Message {
	return []llm.Message{
		{Role: llm.RoleSystem, Content: "You are albert-code."},
		{Role: llm.RoleUser, Content: "Pourquoi <main> & \"go vet\" échouent ?\nLigne deux"},
		{
			Role: llm.RoleAssistant, Reasoning: "lire d'abord", ReasoningSignature: "sig==",
			ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"main.go"}`}},
			Model:     "albert-large", Usage: &llm.Usage{InputTokens: 120, OutputTokens: 30, CachedInputTokens: 100},
		},
		{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "package main\n", IsError: false},
		{Role: llm.RoleAssistant, Content: "Voilà.", Model: "albert-large"},
		{Role: llm.RoleUser, Content: "résume", Synthetic: true},
		{Role: llm.RoleAssistant, Content: "Résumé", Summary: true},
	}
}

func TestAppendReopenRoundTrip(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{Cwd: "/home/marie/projet/", Model: "albert-large", Profile: "default"})
	want := sampleHistory()
	// Two appends: one batch and one single message.
	if err := l.Append(want[:3]...); err != nil {
		t.Fatal(err)
	}
	for _, m := range want[3:] {
		if err := l.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	l2, got := mustOpen(t, s, l.ID())
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reopened history differs:\n got  %+v\n want %+v", got, want)
	}
	if w := l2.Warnings(); len(w) != 0 {
		t.Errorf("healthy session has warnings: %q", w)
	}
	m := l2.Meta()
	if m.MessageCount != len(want) || m.Title != "Pourquoi <main> & \"go vet\" échouent ? Ligne deux" ||
		m.Cwd != "/home/marie/projet" || m.Model != "albert-large" || m.SchemaVersion != SchemaVersion {
		t.Errorf("meta after reopen = %+v", m)
	}
	if !m.UpdatedAt.After(m.CreatedAt) {
		t.Errorf("updated_at %v not after created_at %v", m.UpdatedAt, m.CreatedAt)
	}
	path := filepath.Join(l2.Dir(), messagesFile)
	checkLines(t, path, len(want))
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "<main> &") {
		t.Errorf("messages.jsonl escapes HTML characters; keep them greppable")
	}
}

// TestTornLastLine simulates a crash in the middle of writing the last line: the
// line is skipped with a warning, the bytes are kept aside, and the next Append
// starts on a fresh line.
func TestTornLastLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		tail     string
		keptMsgs int  // messages the tail itself contributes
		warn     bool // a warning is expected
	}{
		{name: "cut inside the JSON", tail: `{"role":"assistant","content":"half a sent`, warn: true},
		{name: "cut JSON then newline", tail: `{"role":"assistant","conte` + "\n", warn: true},
		{name: "zero bytes from a crashed filesystem", tail: "\x00\x00\x00\x00", warn: true},
		{name: "whole JSON missing its newline", tail: `{"role":"assistant","content":"whole"}`, keptMsgs: 1},
		{name: "trailing blank lines", tail: "\n\n  \n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newTestStore(t)
			l := mustCreate(t, s, Meta{Cwd: "/p"})
			history := []llm.Message{user("un"), assistant("deux")}
			if err := l.Append(history...); err != nil {
				t.Fatal(err)
			}
			l.Close()
			path := filepath.Join(l.Dir(), messagesFile)
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(tt.tail)
			f.Close()

			l2, got, err := s.Open(l.ID())
			if err != nil {
				t.Fatalf("Open after torn write: %v", err)
			}
			if len(got) != len(history)+tt.keptMsgs {
				t.Fatalf("loaded %d messages, want %d", len(got), len(history)+tt.keptMsgs)
			}
			warnings := l2.Warnings()
			if tt.warn {
				if len(warnings) != 1 || !strings.Contains(warnings[0], "line 3") || !strings.Contains(warnings[0], path) {
					t.Errorf("warnings = %q, want one naming %s line 3", warnings, path)
				}
				kept, err := os.ReadFile(path + tornSuffix)
				if err != nil || !strings.Contains(string(kept), strings.TrimSpace(tt.tail)) {
					t.Errorf("torn bytes not kept in %s: %q, %v", path+tornSuffix, kept, err)
				}
			} else if len(warnings) != 0 {
				t.Errorf("unexpected warnings %q", warnings)
			}

			if err := l2.Append(user("trois")); err != nil {
				t.Fatal(err)
			}
			l2.Close()
			want := len(history) + tt.keptMsgs + 1
			checkLines(t, path, want)
			l3, again := mustOpen(t, s, l.ID())
			if len(again) != want || again[len(again)-1].Content != "trois" {
				t.Errorf("after the next append: %d messages, last %+v", len(again), again[len(again)-1])
			}
			if w := l3.Warnings(); len(w) != 0 {
				t.Errorf("second open still warns: %q", w)
			}
		})
	}
}

func TestCorruptMiddleLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, bad string
	}{
		{"not JSON", `{"role":"user","content":"cut`},
		{"JSON without a role", `{"content":"who said this?"}`},
		{"unknown role", `{"role":"narrator","content":"x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newTestStore(t)
			l := mustCreate(t, s, Meta{})
			l.Close()
			path := filepath.Join(l.Dir(), messagesFile)
			content := `{"role":"user","content":"a"}` + "\n" + tt.bad + "\n" + `{"role":"assistant","content":"b"}` + "\n"
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := s.Open(l.ID())
			var ce *CorruptLineError
			if !errors.As(err, &ce) || ce.Line != 2 || ce.Path != path {
				t.Fatalf("Open = %v, want a CorruptLineError at %s:2", err, path)
			}
			if !strings.Contains(err.Error(), path+":2") {
				t.Errorf("error %q does not name %s:2", err, path)
			}
			if data, _ := os.ReadFile(path); string(data) != content {
				t.Errorf("a corrupt log was modified")
			}
		})
	}
}

func TestConcurrentAppend(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{})
	const goroutines, each = 8, 25
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				// Long content makes torn interleavings likely if writes were not serialized.
				msg := user(fmt.Sprintf("g%d-%d %s", g, i, strings.Repeat("x", 3000)))
				if err := l.Append(msg); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	l.Close()

	path := filepath.Join(l.Dir(), messagesFile)
	checkLines(t, path, goroutines*each)
	l2, got := mustOpen(t, s, l.ID())
	seen := map[string]bool{}
	for _, m := range got {
		seen[strings.Fields(m.Content)[0]] = true
	}
	if len(seen) != goroutines*each {
		t.Errorf("%d distinct messages after concurrent appends, want %d", len(seen), goroutines*each)
	}
	if n := l2.Meta().MessageCount; n != goroutines*each {
		t.Errorf("meta message_count = %d, want %d", n, goroutines*each)
	}
}

func TestUpdateMetaAtomic(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{Cwd: "/p", Model: "a"})
	if err := l.Append(user("bonjour")); err != nil {
		t.Fatal(err)
	}
	before := l.Meta()
	err := l.UpdateMeta(func(m *Meta) {
		m.Model = "b"
		m.Usage.Add(llm.Usage{InputTokens: 10, OutputTokens: 5})
		m.Cost = 0.25
		m.GitBranch = "main"
		// Fields the Log owns: these must not stick.
		m.ID, m.MessageCount, m.SchemaVersion = "evil", 99, 7
	})
	if err != nil {
		t.Fatal(err)
	}
	var onDisk Meta
	data, err := os.ReadFile(filepath.Join(l.Dir(), metaFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &onDisk); err != nil {
		t.Fatalf("meta.json is not valid JSON: %v", err)
	}
	if !reflect.DeepEqual(onDisk, l.Meta()) {
		t.Errorf("meta.json %+v differs from Log.Meta %+v", onDisk, l.Meta())
	}
	if onDisk.Model != "b" || onDisk.Usage.Total() != 15 || onDisk.Cost != 0.25 || onDisk.GitBranch != "main" {
		t.Errorf("update not applied: %+v", onDisk)
	}
	if onDisk.ID != l.ID() || onDisk.MessageCount != 1 || onDisk.SchemaVersion != SchemaVersion || !onDisk.CreatedAt.Equal(before.CreatedAt) {
		t.Errorf("owned fields changed: %+v", onDisk)
	}
	if !onDisk.UpdatedAt.After(before.UpdatedAt) {
		t.Errorf("updated_at did not move")
	}
	entries, _ := os.ReadDir(l.Dir())
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || strings.Contains(e.Name(), "tmp") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
	if st, err := os.Stat(filepath.Join(l.Dir(), metaFile)); err != nil || st.Mode().Perm() != fileMode {
		t.Errorf("meta.json mode = %v, %v; want %v", st.Mode().Perm(), err, fileMode)
	}
}

func TestClosedLogRefusesWrites(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if err := l.Append(user("x")); !errors.Is(err, errClosed) {
		t.Errorf("Append after Close = %v", err)
	}
	if err := l.UpdateMeta(func(*Meta) {}); !errors.Is(err, errClosed) {
		t.Errorf("UpdateMeta after Close = %v", err)
	}
}

func TestMetaCountsLagOnDiskButNeverInTruth(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{Cwd: "/w"})
	if err := l.Append(user("first question")); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(assistant("a"), user("second")); err != nil {
		t.Fatal(err)
	}
	onDisk, _, err := readMeta(l.Dir())
	if err != nil {
		t.Fatal(err)
	}
	// The title is written at once; the count is allowed to lag until Close.
	if onDisk.Title != "first question" || onDisk.MessageCount != 1 {
		t.Fatalf("meta.json before close = %+v", onDisk)
	}
	// A crash here (no Close): Open recounts from the log.
	l2, msgs := mustOpen(t, s, l.ID())
	if len(msgs) != 3 || l2.Meta().MessageCount != 3 {
		t.Fatalf("reopened %d messages, count %d", len(msgs), l2.Meta().MessageCount)
	}
	l2.Close()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if onDisk, _, _ = readMeta(l.Dir()); onDisk.MessageCount != 3 {
		t.Fatalf("meta.json after close counts %d messages", onDisk.MessageCount)
	}
}

func TestAppendIsWrittenAtOnceAndFlushWaitsForTheDisk(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{Cwd: "/w"})
	defer l.Close()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 10 {
				if err := l.Append(user(fmt.Sprintf("m%d-%d", i, j))); err != nil {
					t.Error(err)
				}
				if j%3 == 0 {
					if err := l.Flush(); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	wg.Wait()
	// Without Flush or Close, another reader already sees every message: a crash of
	// this process after Append returns loses nothing.
	other := NewStore(s.Dir())
	l2, msgs, err := other.Open(l.ID())
	if err != nil {
		t.Fatal(err)
	}
	l2.Close()
	if len(msgs) != 80 {
		t.Fatalf("another reader sees %d of 80 messages", len(msgs))
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	pending := l.syncing
	l.mu.Unlock()
	if pending {
		t.Fatal("Flush returned while an fsync was pending")
	}
}
