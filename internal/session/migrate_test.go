package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

const v1ID = "session_20260312_101500_9f8e7d6c"

// v1Store copies the version 1 fixture into a fresh store, since migration rewrites it.
func v1Store(t *testing.T) (*Store, string) {
	t.Helper()
	s := newTestStore(t)
	src := filepath.Join("testdata", "v1", v1ID)
	dst := filepath.Join(s.Dir(), v1ID)
	if err := os.MkdirAll(dst, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{metaFile, messagesFile} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return s, dst
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "v1", v1ID, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestMigrateV1(t *testing.T) {
	t.Parallel()
	wantMeta := Meta{
		SchemaVersion: SchemaVersion,
		ID:            v1ID,
		Title:         "Pourquoi le test TestFormulaire échoue-t-il depuis la migra…",
		Cwd:           "/home/marie/projets/demarches",
		Model:         "albert-large",
		Profile:       "default",
		CreatedAt:     time.Date(2026, 3, 12, 10, 15, 0, 123456000, time.UTC),
		UpdatedAt:     time.Date(2026, 3, 12, 10, 21, 42, 654321000, time.UTC),
		MessageCount:  7,
		Usage:         llm.Usage{InputTokens: 18234, OutputTokens: 912},
		GitBranch:     "main",
		GitCommit:     "3b7c1e9",
	}
	// Both entry points migrate: resuming directly, and listing first.
	for _, via := range []string{"open", "list"} {
		t.Run(via, func(t *testing.T) {
			t.Parallel()
			s, dir := v1Store(t)
			if via == "list" {
				ms, err := s.List(Filter{})
				if err != nil || len(ms) != 1 {
					t.Fatalf("List = %v, %v", ms, err)
				}
				if ms[0] != wantMeta {
					t.Errorf("listed meta:\n got  %+v\n want %+v", ms[0], wantMeta)
				}
			}
			l, msgs := mustOpen(t, s, "9f8e")
			if got := l.Meta(); got != wantMeta {
				t.Errorf("migrated meta:\n got  %+v\n want %+v", got, wantMeta)
			}

			warnings := strings.Join(l.Warnings(), "\n")
			if via == "open" && !strings.Contains(warnings, "converted from the original albert-code format") {
				t.Errorf("no migration warning in %q", warnings)
			}
			// The fixture's last turn stopped after one of two tool calls.
			if !strings.Contains(warnings, "1 interrupted tool call") {
				t.Errorf("no repair warning in %q", warnings)
			}
			if len(msgs) != 8 || !msgs[7].Synthetic || msgs[7].ToolCallID != "call_bash_3" {
				t.Errorf("history not repaired on load: %+v", msgs)
			}
			a := msgs[1]
			if a.Reasoning != "Je dois lire le test d'abord." || len(a.ToolCalls) != 1 ||
				a.ToolCalls[0] != (llm.ToolCall{ID: "call_read_1", Name: "read_file", Arguments: `{"path": "tests/test_formulaire.py"}`}) {
				t.Errorf("assistant tool call not converted: %+v", a)
			}
			if msgs[3].Content != "Le test appelle is_valid()\nsans données liées." {
				t.Errorf("content parts not joined: %q", msgs[3].Content)
			}
			if msgs[5].ReasoningSignature != "sig-abc" || msgs[5].Content != "" {
				t.Errorf("null content or signature not converted: %+v", msgs[5])
			}

			for _, name := range []string{metaFile, messagesFile} {
				bak, err := os.ReadFile(filepath.Join(dir, name+bakSuffix))
				if err != nil || !bytes.Equal(bak, fixture(t, name)) {
					t.Errorf("%s.bak is not the original (%v)", name, err)
				}
			}
			migrated, err := os.ReadFile(filepath.Join(dir, messagesFile))
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "v1-migrated.golden.jsonl")
			if *update && via == "open" {
				os.WriteFile(golden, migrated, 0o644)
			}
			if want, _ := os.ReadFile(golden); !bytes.Equal(migrated, want) {
				t.Errorf("migrated messages.jsonl differs from %s (run with -update after checking):\n%s", golden, migrated)
			}
			var onDisk map[string]any
			data, _ := os.ReadFile(filepath.Join(dir, metaFile))
			if err := json.Unmarshal(data, &onDisk); err != nil || onDisk["schema_version"] != float64(SchemaVersion) {
				t.Errorf("meta.json not rewritten at schema %d: %s", SchemaVersion, data)
			}
			checkLines(t, filepath.Join(dir, messagesFile), 7)

			// Migration happens once: a second open finds a current session.
			l.Close()
			l2, again := mustOpen(t, s, v1ID)
			if strings.Contains(strings.Join(l2.Warnings(), "\n"), "converted") || len(again) != 8 {
				t.Errorf("second open migrated again or lost messages: %q", l2.Warnings())
			}
			if err := l2.Append(user("on reprend")); err != nil {
				t.Fatal(err)
			}
			checkLines(t, filepath.Join(dir, messagesFile), 8)
		})
	}
}

// TestMigrateV1AfterCrash: a crash after messages.jsonl was rewritten but before
// meta.json was leaves a v1 meta next to converted (here: garbage) messages; the
// rerun must start from the backups.
func TestMigrateV1AfterCrash(t *testing.T) {
	t.Parallel()
	s, dir := v1Store(t)
	os.WriteFile(filepath.Join(dir, messagesFile+bakSuffix), fixture(t, messagesFile), 0o600)
	os.WriteFile(filepath.Join(dir, messagesFile), []byte("half-migrated garbage\n{\"role\":"), 0o600)
	l, msgs := mustOpen(t, s, v1ID)
	if len(msgs) != 8 || l.Meta().MessageCount != 7 {
		t.Errorf("rerun migrated %d messages (meta says %d), want 8 and 7", len(msgs), l.Meta().MessageCount)
	}
	if bak, _ := os.ReadFile(filepath.Join(dir, messagesFile+bakSuffix)); !bytes.Equal(bak, fixture(t, messagesFile)) {
		t.Errorf("the backup was overwritten")
	}
}

func TestMigrateV1Damaged(t *testing.T) {
	t.Parallel()
	t.Run("torn last line is left out with a warning", func(t *testing.T) {
		t.Parallel()
		s, dir := v1Store(t)
		f, _ := os.OpenFile(filepath.Join(dir, messagesFile), os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString(`{"role":"tool","content":"3 passed","name":"ba`)
		f.Close()
		l, msgs := mustOpen(t, s, v1ID)
		if len(msgs) != 8 || !strings.Contains(strings.Join(l.Warnings(), "\n"), "line 8 was cut short") {
			t.Errorf("got %d messages, warnings %q", len(msgs), l.Warnings())
		}
	})
	t.Run("corrupt middle line changes nothing", func(t *testing.T) {
		t.Parallel()
		s, dir := v1Store(t)
		lines := strings.SplitAfter(string(fixture(t, messagesFile)), "\n")
		lines[2] = "{oops\n"
		bad := strings.Join(lines, "")
		os.WriteFile(filepath.Join(dir, messagesFile), []byte(bad), 0o600)
		_, _, err := s.Open(v1ID)
		var ce *CorruptLineError
		if !errors.As(err, &ce) || ce.Line != 3 {
			t.Fatalf("Open = %v, want a CorruptLineError at line 3", err)
		}
		if _, err := os.Stat(filepath.Join(dir, metaFile+bakSuffix)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a failed migration left a backup behind")
		}
		if data, _ := os.ReadFile(filepath.Join(dir, metaFile)); !bytes.Equal(data, fixture(t, metaFile)) {
			t.Errorf("a failed migration changed meta.json")
		}
		if _, err := s.List(Filter{}); err == nil {
			t.Errorf("List hid the broken v1 session instead of reporting it")
		}
	})
}
