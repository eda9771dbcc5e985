package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// CorruptLineError reports a line that is not a message somewhere before the last
// line of messages.jsonl.
//
// Only the last line can be torn by a crash, because Append writes whole lines and
// fsyncs before the next one. A bad line elsewhere means the file was damaged from
// outside (disk, editor, another program), so loading stops instead of dropping it:
// skipping it could silently remove a tool call or its result and change what the
// model is told happened. The file is left as it was for a person to inspect.
type CorruptLineError struct {
	Path string
	Line int // 1-based
	Err  error
}

func (e *CorruptLineError) Error() string {
	return fmt.Sprintf("%s:%d: not a valid message (%v); the file was left unchanged: fix or delete that line, then resume again",
		e.Path, e.Line, e.Err)
}

func (e *CorruptLineError) Unwrap() error { return e.Err }

// scanned is what reading a JSONL log found.
type scanned struct {
	// good is the length of the prefix made of whole, valid lines; everything after
	// it is a torn tail (or blank padding) that the next append must not follow.
	good int64
	// tornLine is the 1-based number of the torn last line, 0 if none.
	tornLine int
	// missingNewline is set when the last valid line lacks its '\n' (the crash hit
	// between the JSON and the newline): the message is whole and kept.
	missingNewline bool
}

// blank reports lines that carry nothing; they are skipped wherever they are.
func blank(line []byte) bool { return len(bytes.Trim(line, " \t\r")) == 0 }

// scanLines calls decode for every non-blank line of data. A line that fails to
// decode is a torn tail if only blank lines follow it, and a *CorruptLineError
// otherwise.
func scanLines(path string, data []byte, decode func([]byte) error) (scanned, error) {
	var s scanned
	pos, lineNo := 0, 0
	for pos < len(data) {
		end := bytes.IndexByte(data[pos:], '\n')
		hasNewline := end >= 0
		if hasNewline {
			end += pos
		} else {
			end = len(data)
		}
		lineNo++
		line := data[pos:end]
		next := end + 1
		if !hasNewline {
			next = end
		}
		if blank(line) {
			pos = next
			continue
		}
		if err := decode(line); err != nil {
			if restBlank(data[next:]) {
				s.tornLine = lineNo
				return s, nil
			}
			return s, &CorruptLineError{Path: path, Line: lineNo, Err: err}
		}
		s.good = int64(next)
		s.missingNewline = !hasNewline
		pos = next
	}
	return s, nil
}

func restBlank(rest []byte) bool {
	for _, line := range bytes.Split(rest, []byte{'\n'}) {
		if !blank(line) {
			return false
		}
	}
	return true
}

var errNoRole = errors.New("no known role")

// decodeMessage is strict about what makes a line a message (a known role) and
// lenient about the rest, so that fields added later do not break older readers.
func decodeMessage(line []byte) (llm.Message, error) {
	var m llm.Message
	if err := json.Unmarshal(line, &m); err != nil {
		return m, err
	}
	switch m.Role {
	case llm.RoleSystem, llm.RoleUser, llm.RoleAssistant, llm.RoleTool:
		return m, nil
	}
	return m, fmt.Errorf("%w: %q", errNoRole, m.Role)
}

// loadMessages reads path and makes it safe to append to: a torn last line is moved
// to path+".torn" and cut off, and a last line missing its newline gets one. It
// returns the messages and a warning for each repair it made.
func loadMessages(path string) ([]llm.Message, []string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		// A crash between creating the folder and the log: an empty session.
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	var msgs []llm.Message
	s, err := scanLines(path, data, func(line []byte) error {
		m, err := decodeMessage(line)
		if err == nil {
			msgs = append(msgs, m)
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	if tail := data[s.good:]; !blank(bytes.ReplaceAll(tail, []byte{'\n'}, nil)) {
		if err := keepTorn(path, tail); err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, fmt.Sprintf(
			"%s: line %d was cut short (albert-code probably stopped while writing it) and was skipped; its %d bytes are kept in %s; the %d messages before it are intact",
			path, s.tornLine, len(tail), path+tornSuffix, len(msgs)))
	}
	if err := fixTail(path, s, int64(len(data))); err != nil {
		return nil, nil, err
	}
	return msgs, warnings, nil
}

// keepTorn appends a torn tail to path+".torn" before it is cut from the log.
func keepTorn(path string, tail []byte) error {
	f, err := os.OpenFile(path+tornSuffix, os.O_WRONLY|os.O_CREATE|os.O_APPEND, fileMode)
	if err != nil {
		return fmt.Errorf("keep torn line of %s: %w", path, err)
	}
	rec := append(bytes.Clone(bytes.TrimRight(tail, "\n")), '\n')
	if _, err := f.Write(rec); err != nil {
		f.Close()
		return fmt.Errorf("keep torn line of %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("keep torn line of %s: fsync: %w", path, err)
	}
	return f.Close()
}

// fixTail truncates the log to its valid prefix and ends it with a newline, so the
// next Append starts on a fresh line. Truncating (rather than writing a newline after
// the torn bytes) keeps the torn line from becoming a corrupt line in the middle.
func fixTail(path string, s scanned, size int64) error {
	if s.good == size && !s.missingNewline {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("repair end of %s: %w", path, err)
	}
	defer f.Close()
	if err := f.Truncate(s.good); err != nil {
		return fmt.Errorf("repair end of %s: %w", path, err)
	}
	if s.missingNewline {
		if _, err := f.WriteAt([]byte{'\n'}, s.good); err != nil {
			return fmt.Errorf("repair end of %s: %w", path, err)
		}
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("repair end of %s: fsync: %w", path, err)
	}
	return nil
}
