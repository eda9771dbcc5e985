// Package mention embeds the files a prompt names as @path, the way the
// original's input did at send time: a text file up to 256 KiB goes into the
// prompt whole, a larger one, a directory or a binary file is named for the
// model to open with its tools. The text the user typed stays first and
// unchanged.
package mention

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Caps: the original's DEFAULT_MAX_EMBED_BYTES per file, and a total so that a
// prompt naming many files does not fill the context window by itself.
const (
	maxFileBytes  = 256 << 10
	maxTotalBytes = 1 << 20
)

// Expand returns text followed by the contents, or a description, of every
// existing file or directory it names with @path, resolved against workDir.
// Words that name nothing (an e-mail address, a handle) are left alone.
func Expand(text, workDir string) string {
	var b strings.Builder
	seen := map[string]bool{}
	total := 0
	for _, name := range mentions(text) {
		path, info, ok := resolve(name, workDir)
		if !ok {
			// Punctuation that ends a sentence is not part of the path.
			name = strings.TrimRight(name, ".,;:!?)]}'\"")
			if path, info, ok = resolve(name, workDir); !ok {
				continue
			}
		}
		if seen[path] {
			continue
		}
		seen[path] = true
		b.WriteString("\n\n")
		switch {
		case info.IsDir():
			fmt.Fprintf(&b, "Attached: %s/ (a directory; list it with your tools)", name)
		case info.Size() > maxFileBytes:
			fmt.Fprintf(&b, "Attached: %s (%d bytes, too large to include: read the parts you need)", name, info.Size())
		case total+int(info.Size()) > maxTotalBytes:
			fmt.Fprintf(&b, "Attached: %s (%d bytes, not included: the prompt already holds %d bytes of files; read it)", name, info.Size(), total)
		default:
			data, err := os.ReadFile(path)
			switch {
			case err != nil:
				fmt.Fprintf(&b, "Attached: %s (unreadable: %v)", name, err)
			case isBinary(data):
				fmt.Fprintf(&b, "Attached: %s (a binary file of %d bytes, not shown)", name, len(data))
			default:
				total += len(data)
				fence := fenceFor(data)
				fmt.Fprintf(&b, "Contents of %s:\n%s\n%s\n%s", name, fence, strings.TrimRight(string(data), "\n"), fence)
			}
		}
	}
	if b.Len() == 0 {
		return text
	}
	return text + b.String()
}

// mentions lists the words that follow an @ at the start of the text or
// after a space or an opening parenthesis: @path, or @"a path with spaces".
func mentions(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || i > 0 && !isSpace(text[i-1]) {
			continue
		}
		rest := text[i+1:]
		if strings.HasPrefix(rest, `"`) {
			if end := strings.IndexByte(rest[1:], '"'); end > 0 {
				out = append(out, rest[1:1+end])
				i += end + 2
			}
			continue
		}
		end := strings.IndexFunc(rest, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' })
		if end < 0 {
			end = len(rest)
		}
		if end > 0 {
			out = append(out, rest[:end])
		}
		i += end
	}
	return out
}

// resolve finds name relative to workDir.
func resolve(name, workDir string) (string, os.FileInfo, bool) {
	if name == "" {
		return "", nil, false
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(workDir, path)
	}
	path = filepath.Clean(path)
	info, err := os.Stat(path)
	return path, info, err == nil
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '(' }

// isBinary reports a file a prompt cannot show: a NUL byte or invalid UTF-8.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data)
}

// fenceFor returns a code fence longer than any run of backticks in data, so
// the file cannot close it early.
func fenceFor(data []byte) string {
	longest, run := 0, 0
	for _, c := range data {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
