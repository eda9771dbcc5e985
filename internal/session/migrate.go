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

	"github.com/etalab-ia/albert-code/internal/llm"
)

// Schema version 1 is the layout the original Python albert-code (a Mistral Vibe
// fork) wrote under ~/.albert-code/logs/session/session_<YYYYmmdd_HHMMSS>_<id8>/:
//
//   - meta.json has no schema_version; it holds session_id, start_time, end_time,
//     git_commit, git_branch, environment.working_directory, username, title,
//     total_messages, agent_profile.name, config.active_model, and a stats object
//     whose token totals are session_prompt_tokens/session_completion_tokens
//     (prompt_tokens/completion_tokens are accepted too) and session_cost.
//   - messages.jsonl lines are OpenAI-style: reasoning_content instead of reasoning,
//     tool_calls[] as {id, index, type, function: {name, arguments}}, content a
//     string, null or a list of {text} parts, and a message_id we do not keep.
//
// migrateV1 rewrites both files in the current format, in place, after keeping the
// originals as meta.json.bak and messages.jsonl.bak. The order makes it safe to
// crash at any point: backups first (never overwritten, so they stay the originals),
// then messages.jsonl, then meta.json, whose schema_version marks the end. A rerun
// after a crash reads the backups, not the half-migrated files.

type v1Meta struct {
	SessionID    string             `json:"session_id"`
	StartTime    string             `json:"start_time"`
	EndTime      string             `json:"end_time"`
	GitCommit    string             `json:"git_commit"`
	GitBranch    string             `json:"git_branch"`
	Environment  map[string]*string `json:"environment"`
	Title        string             `json:"title"`
	AgentProfile struct {
		Name string `json:"name"`
	} `json:"agent_profile"`
	Config struct {
		ActiveModel string `json:"active_model"`
	} `json:"config"`
	Stats struct {
		SessionPromptTokens     int64   `json:"session_prompt_tokens"`
		SessionCompletionTokens int64   `json:"session_completion_tokens"`
		PromptTokens            int64   `json:"prompt_tokens"`
		CompletionTokens        int64   `json:"completion_tokens"`
		SessionCost             float64 `json:"session_cost"`
	} `json:"stats"`
}

type v1Message struct {
	Role               string    `json:"role"`
	Content            v1Content `json:"content"`
	ReasoningContent   v1Content `json:"reasoning_content"`
	ReasoningSignature string    `json:"reasoning_signature"`
	ToolCalls          []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	Name       string `json:"name"`
	ToolCallID string `json:"tool_call_id"`
}

// v1Content accepts what the original's content validator accepted: a string, null,
// or a list of parts whose text fields are joined with newlines.
type v1Content string

func (c *v1Content) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = v1Content(s)
		return nil
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return fmt.Errorf("content is neither text nor a list of text parts")
	}
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.Text
	}
	*c = v1Content(strings.Join(texts, "\n"))
	return nil
}

func (v v1Message) convert() (llm.Message, error) {
	m := llm.Message{
		Role:               llm.Role(v.Role),
		Content:            string(v.Content),
		Reasoning:          string(v.ReasoningContent),
		ReasoningSignature: v.ReasoningSignature,
		ToolCallID:         v.ToolCallID,
		ToolName:           v.Name,
	}
	switch m.Role {
	case llm.RoleSystem, llm.RoleUser, llm.RoleAssistant, llm.RoleTool:
	default:
		return m, fmt.Errorf("%w: %q", errNoRole, v.Role)
	}
	for _, c := range v.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	return m, nil
}

// sourceFile returns the original of name in dir: its backup if a previous
// migration made one, else the file itself. ok is false if neither exists.
func sourceFile(dir, name string) (data []byte, fromBackup, ok bool, err error) {
	for _, p := range []string{filepath.Join(dir, name+bakSuffix), filepath.Join(dir, name)} {
		data, err = os.ReadFile(p)
		if err == nil {
			return data, strings.HasSuffix(p, bakSuffix), true, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, false, false, fmt.Errorf("migrate session: read %s: %w", p, err)
		}
	}
	return nil, false, false, nil
}

func migrateV1(dir string) (Meta, string, error) {
	id := filepath.Base(dir)
	metaData, metaFromBak, _, err := sourceFile(dir, metaFile)
	if err != nil {
		return Meta{}, "", err
	}
	var old v1Meta
	if err := json.Unmarshal(metaData, &old); err != nil {
		return Meta{}, "", fmt.Errorf("migrate session %s: %s is not a version 1 meta (%v): fix or delete it", id, filepath.Join(dir, metaFile), err)
	}

	msgData, msgFromBak, haveMsgs, err := sourceFile(dir, messagesFile)
	if err != nil {
		return Meta{}, "", err
	}
	msgPath := filepath.Join(dir, messagesFile)
	if msgFromBak {
		msgPath += bakSuffix
	}
	var msgs []llm.Message
	sc, err := scanLines(msgPath, msgData, func(line []byte) error {
		var v v1Message
		if err := json.Unmarshal(line, &v); err != nil {
			return err
		}
		m, err := v.convert()
		if err == nil {
			msgs = append(msgs, m)
		}
		return err
	})
	if err != nil {
		return Meta{}, "", fmt.Errorf("migrate session %s: nothing was changed: %w", id, err)
	}

	// Backups before any rewrite; an existing backup is the original, keep it.
	if haveMsgs && !msgFromBak {
		if err := writeFileAtomic(filepath.Join(dir, messagesFile+bakSuffix), msgData, durable); err != nil {
			return Meta{}, "", fmt.Errorf("migrate session %s: %w", id, err)
		}
	}
	if !metaFromBak {
		if err := writeFileAtomic(filepath.Join(dir, metaFile+bakSuffix), metaData, durable); err != nil {
			return Meta{}, "", fmt.Errorf("migrate session %s: %w", id, err)
		}
	}

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range msgs {
		if err := enc.Encode(&msgs[i]); err != nil {
			return Meta{}, "", fmt.Errorf("migrate session %s: encode message %d: %w", id, i+1, err)
		}
	}
	if err := writeFileAtomic(filepath.Join(dir, messagesFile), buf.Bytes(), durable); err != nil {
		return Meta{}, "", fmt.Errorf("migrate session %s: %w", id, err)
	}

	m := old.toMeta(id, msgs)
	if m.CreatedAt.IsZero() || m.UpdatedAt.IsZero() {
		if st, err := os.Stat(dir); err == nil {
			m.CreatedAt = cmpOrTime(m.CreatedAt, st.ModTime().UTC())
			m.UpdatedAt = cmpOrTime(m.UpdatedAt, m.CreatedAt)
		}
	}
	if err := writeMeta(dir, m, durable); err != nil {
		return Meta{}, "", fmt.Errorf("migrate session %s: %w", id, err)
	}

	kept := metaFile + bakSuffix
	if haveMsgs {
		kept += " and " + messagesFile + bakSuffix
	}
	warn := fmt.Sprintf("session %s was converted from the original albert-code format (schema 1 → %d); the originals are kept as %s",
		id, SchemaVersion, kept)
	if sc.tornLine > 0 {
		warn += fmt.Sprintf("; its line %d was cut short and left out (still in the backup)", sc.tornLine)
	}
	return m, warn, nil
}

func (old v1Meta) toMeta(id string, msgs []llm.Message) Meta {
	m := Meta{
		SchemaVersion: SchemaVersion,
		ID:            id,
		Title:         old.Title,
		Model:         old.Config.ActiveModel,
		Profile:       old.AgentProfile.Name,
		CreatedAt:     parseV1Time(old.StartTime),
		UpdatedAt:     parseV1Time(old.EndTime),
		MessageCount:  len(msgs),
		Usage: llm.Usage{
			InputTokens:  max(old.Stats.SessionPromptTokens, old.Stats.PromptTokens),
			OutputTokens: max(old.Stats.SessionCompletionTokens, old.Stats.CompletionTokens),
		},
		// The original's estimate, in whatever currency its price table used; for
		// Albert models it priced everything at 0.
		Cost:      old.Stats.SessionCost,
		GitBranch: old.GitBranch,
		GitCommit: old.GitCommit,
	}
	if wd := old.Environment["working_directory"]; wd != nil {
		m.Cwd = cleanPath(*wd)
	}
	if m.UpdatedAt.IsZero() {
		m.UpdatedAt = m.CreatedAt
	}
	if m.Title == "" {
		for _, msg := range msgs {
			if msg.Role == llm.RoleUser && msg.Content != "" {
				m.Title = Title(msg.Content)
				break
			}
		}
	}
	return m
}

// parseV1Time reads the original's ISO 8601 times, which Python wrote with or
// without a zone; a time without a zone is taken as UTC, as the original wrote UTC.
func parseV1Time(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

func cmpOrTime(t, fallback time.Time) time.Time {
	if t.IsZero() {
		return fallback
	}
	return t
}
