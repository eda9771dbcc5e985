package builtin

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// rgText is ripgrep's JSON for text that may not be UTF-8: one of the two is set.
type rgText struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

func (t rgText) raw() []byte {
	if t.Text != nil {
		return []byte(*t.Text)
	}
	b, _ := base64.StdEncoding.DecodeString(t.Bytes)
	return b
}

type rgEvent struct {
	Type string `json:"type"`
	Data struct {
		Path       rgText `json:"path"`
		Lines      rgText `json:"lines"`
		LineNumber int    `json:"line_number"`
	} `json:"data"`
}

// grepRipgrep runs rg without --follow, so links below the root are not followed
// (the root itself is already a real path), with flags that make it walk exactly as fswalk.Walk does, reading
// its JSON output (robust against colons and odd bytes in paths) until one match past
// the limit. bad is a model-visible problem (rg rejected the pattern).
func grepRipgrep(ctx context.Context, rg string, q grepQuery) (matches []grepMatch, bad string, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	args := []string{
		"--json", "--no-config", "--hidden", "--no-require-git", "--no-ignore-global",
		"--sort", "path", // deterministic order, and the same cut as the Go engine
		"--max-filesize", fmt.Sprint(maxGrepFileBytes),
		"--glob", "!.git",
	}
	if q.p.IgnoreCase {
		args = append(args, "--ignore-case")
	}
	if q.p.Glob != "" {
		args = append(args, "--glob", q.p.Glob)
	}
	// Later globs win in rg: the secrets below the root stay out whatever the
	// model's glob says. Matches are filtered again below, for secrets rg met
	// another way (a file root, a glob quirk).
	for _, rel := range q.secretsBelow {
		args = append(args, "--glob", "!/"+rel)
	}
	// rg matches --glob against paths relative to its working directory, so it runs
	// in the search root, as the Go engine matches relative to it.
	dir, target := q.root, "."
	if info, err := os.Stat(q.root); err == nil && !info.IsDir() {
		dir, target = filepath.Split(q.root)
	}
	args = append(args, "--regexp", q.p.Pattern, "--", target)
	cmd := exec.CommandContext(ctx, rg, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", fmt.Errorf("rg: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("start rg: %w", err)
	}
	r := bufio.NewReaderSize(stdout, 64<<10)
	enough, sawEvent := false, false
	for !enough {
		line, readErr := r.ReadBytes('\n')
		if len(line) > 0 {
			var ev rgEvent
			err := json.Unmarshal(line, &ev)
			sawEvent = sawEvent || err == nil
			if err == nil && ev.Type == "match" && !q.skipPath(filepath.Join(dir, string(ev.Data.Path.raw()))) {
				matches = append(matches, grepMatch{
					path: filepath.Join(dir, string(ev.Data.Path.raw())),
					line: ev.Data.LineNumber,
					text: cutLine(bytes.TrimSuffix(ev.Data.Lines.raw(), []byte{'\n'})),
				})
				enough = len(matches) > q.maxMatches
			}
		}
		if readErr == io.EOF {
			break
		}
		if readErr != nil {
			return nil, "", fmt.Errorf("read rg output: %w", readErr)
		}
	}
	if enough {
		cancel()
		_, _ = io.Copy(io.Discard, r)
	}
	waitErr := cmd.Wait()
	if ctx.Err() != nil && !enough {
		return nil, "", ctx.Err()
	}
	var exitErr *exec.ExitError
	if !enough && errors.As(waitErr, &exitErr) && exitErr.ExitCode() == 2 && !sawEvent {
		// Exit 2 before any search output: rg rejected the arguments (a regex Go
		// accepts but Rust's engine does not). Exit 2 after searching means some file
		// was unreadable, which the Go engine ignores too.
		return nil, "rg: " + strings.TrimSpace(stderr.String()), nil
	}
	if waitErr != nil && !enough && (exitErr == nil || exitErr.ExitCode() > 2) {
		return nil, "", fmt.Errorf("rg: %w: %s", waitErr, stderr.String())
	}
	return matches, "", nil
}
