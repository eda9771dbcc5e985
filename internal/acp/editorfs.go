package acp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/textdiff"
	"github.com/etalab-ia/albert-code/internal/tool"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// editorTools are the built-in tools the editor serves when it offers to: read,
// write and edit through its buffers (so the agent sees unsaved changes and the
// editor sees every change), bash in its terminals. They keep the built-ins' names,
// descriptions and parameters, so the model sees no difference.
func (ss *session) editorTools(caps sdk.ClientCapabilities) []tool.Tool {
	env := builtin.Env{WorkDir: ss.cwd}
	var out []tool.Tool
	if caps.Fs.ReadTextFile {
		out = append(out, ss.editorRead(builtin.Read(env).Info()))
	}
	if caps.Fs.ReadTextFile && caps.Fs.WriteTextFile {
		out = append(out, ss.editorWrite(builtin.Write(env).Info()), ss.editorEdit(builtin.Edit(env).Info()))
	}
	// The editor's terminal runs commands as the editor's own processes, out of
	// reach of the OS sandbox: with the sandbox on, bash stays the built-in one,
	// confined, and its output still streams to the editor as the call's content.
	if caps.Terminal && ss.env.Sandbox().Status().Mode == sandbox.Off {
		out = append(out, ss.editorBash(builtin.Bash(env).Info()))
	}
	return out
}

// resolve makes a path the model sent absolute, as the built-in tools do.
func (ss *session) resolve(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	return filepath.Clean(absPath(p, ss.cwd))
}

// readBuffer returns the editor's text of path; exists is false when neither the
// editor nor the disk has the file.
func (ss *session) readBuffer(ctx context.Context, path string) (text string, exists bool, err error) {
	resp, err := ss.srv.conn.ReadTextFile(ctx, sdk.ReadTextFileRequest{SessionId: sdk.SessionId(ss.id), Path: path})
	if err == nil {
		return resp.Content, true, nil
	}
	if _, serr := os.Stat(path); errors.Is(serr, fs.ErrNotExist) {
		return "", false, nil
	}
	return "", true, fmt.Errorf("the editor could not read it: %w", err)
}

func (ss *session) editorRead(info tool.Info) tool.Tool {
	return tool.New(tool.Def[builtin.ReadParams]{
		Info:  info,
		Paths: func(p builtin.ReadParams) []string { return []string{ss.resolve(p.Path)} },
		Run: func(ctx context.Context, _ tool.Call, p builtin.ReadParams) (tool.Result, error) {
			if p.Offset < 0 || p.Limit < 0 {
				return tool.Errorf("offset and limit must be positive"), nil
			}
			path := ss.resolve(p.Path)
			shown := displayPath(path, ss.cwd)
			text, exists, err := ss.readBuffer(ctx, path)
			switch {
			case err != nil:
				return tool.Errorf("cannot read %s: %v", shown, err), nil
			case !exists:
				return tool.Errorf("%s does not exist", shown), nil
			case text == "":
				return tool.Text(fmt.Sprintf("(%s is empty)", shown)), nil
			}
			return numberLines(text, shown, max(p.Offset, 1), p.Limit), nil
		},
	})
}

// numberLines shows text's lines like the built-in read: cat -n numbering, within
// the default line and byte budgets, saying where to read on.
func numberLines(text, shown string, offset, limit int) tool.Result {
	if limit == 0 {
		limit = builtin.DefaultReadLines
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if offset > len(lines) {
		return tool.Errorf("offset %d is past the end of %s, which has %d lines", offset, shown, len(lines))
	}
	var b strings.Builder
	last := offset - 1
	for i := offset; i <= len(lines) && i < offset+limit; i++ {
		line := fmt.Sprintf("%6d\t%s\n", i, strings.TrimSuffix(lines[i-1], "\r"))
		if b.Len()+len(line) > builtin.DefaultReadBytes && b.Len() > 0 {
			break
		}
		b.WriteString(line)
		last = i
	}
	res := tool.Result{Output: b.String()}
	if last < len(lines) {
		res.Truncated = true
		res.Output += fmt.Sprintf("\n[showing lines %d-%d of %d; to read on, call read with offset=%d]\n", offset, last, len(lines), last+1)
	}
	return res
}

func (ss *session) editorWrite(info tool.Info) tool.Tool {
	return tool.New(tool.Def[builtin.WriteParams]{
		Info:  info,
		Paths: func(p builtin.WriteParams) []string { return []string{ss.resolve(p.Path)} },
		Run: func(ctx context.Context, _ tool.Call, p builtin.WriteParams) (tool.Result, error) {
			path := ss.resolve(p.Path)
			shown := displayPath(path, ss.cwd)
			old, exists, err := ss.readBuffer(ctx, path)
			if err != nil {
				return tool.Errorf("cannot write %s: %v", shown, err), nil
			}
			if exists && old == p.Content {
				return tool.Text(fmt.Sprintf("%s already has this content; nothing changed", shown)), nil
			}
			return ss.writeBuffer(ctx, path, shown, old, p.Content, !exists, "")
		},
	})
}

func (ss *session) editorEdit(info tool.Info) tool.Tool {
	return tool.New(tool.Def[builtin.EditParams]{
		Info:  info,
		Paths: func(p builtin.EditParams) []string { return []string{ss.resolve(p.Path)} },
		Run: func(ctx context.Context, _ tool.Call, p builtin.EditParams) (tool.Result, error) {
			path := ss.resolve(p.Path)
			shown := displayPath(path, ss.cwd)
			if p.OldString == p.NewString {
				return tool.Errorf("old_string and new_string are identical; nothing to change"), nil
			}
			old, exists, err := ss.readBuffer(ctx, path)
			if err != nil {
				return tool.Errorf("cannot edit %s: %v", shown, err), nil
			}
			// The same rules as the built-in edit, applied to the editor's buffer.
			switch count := strings.Count(old, p.OldString); {
			case p.OldString == "" && old == "":
				return ss.writeBuffer(ctx, path, shown, old, p.NewString, !exists, "")
			case p.OldString == "":
				return tool.Errorf("old_string is empty but %s already has content; give the text to replace, or use write to replace the whole file", shown), nil
			case !exists:
				return tool.Errorf("%s does not exist", shown), nil
			case count == 0:
				return tool.Errorf("old_string was not found in %s. It must match the file exactly, including whitespace and indentation, and must not include read's line-number prefixes; read the file again and copy the text", shown), nil
			case count > 1 && !p.ReplaceAll:
				return tool.Errorf("old_string matches %d places in %s; add surrounding lines to make it unique, or set replace_all to change every occurrence", count, shown), nil
			default:
				return ss.writeBuffer(ctx, path, shown, old, strings.ReplaceAll(old, p.OldString, p.NewString), false, fmt.Sprintf("%d replacement(s)", count))
			}
		},
	})
}

// writeBuffer has the editor write content and reports the change as a diff.
func (ss *session) writeBuffer(ctx context.Context, path, shown, old, content string, created bool, what string) (tool.Result, error) {
	if _, err := ss.srv.conn.WriteTextFile(ctx, sdk.WriteTextFileRequest{SessionId: sdk.SessionId(ss.id), Path: path, Content: content}); err != nil {
		return tool.Errorf("cannot write %s: the editor refused: %v", shown, err), nil
	}
	from := "a/" + shown
	if created {
		from = "/dev/null"
	}
	unified, added, removed := textdiff.Unified(from, "b/"+shown, old, content)
	diff := builtin.FileDiff{Path: shown, Old: old, New: content, Created: created, Unified: unified, Added: added, Removed: removed}
	msg := fmt.Sprintf("Updated %s (+%d -%d lines)", shown, added, removed)
	if what != "" {
		msg = fmt.Sprintf("Edited %s: %s (+%d -%d lines)", shown, what, added, removed)
	}
	if created {
		msg = fmt.Sprintf("Created %s (%d lines)", shown, added)
	}
	return tool.Result{Output: msg, Display: diff}, nil
}
