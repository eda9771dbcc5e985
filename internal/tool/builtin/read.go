package builtin

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed read.md
var readDescription string

const (
	// maxLineBytes cuts minified code and data lines: one 1 MB line would eat the
	// whole budget and tell the model nothing.
	maxLineBytes = 2000
	// sniffBytes is how much of a file decides text or binary, as git and file(1) do.
	sniffBytes = 8000
	// maxSuggestions bounds the "did you mean" list for a missing file.
	maxSuggestions = 5
)

// ReadParams are the arguments of the read tool.
type ReadParams struct {
	Path   string `json:"path" jsonschema:"the file to read, absolute or relative to the workspace"`
	Offset int    `json:"offset,omitempty" jsonschema:"the 1-based line to start at (default 1)"`
	Limit  int    `json:"limit,omitempty" jsonschema:"how many lines to read (default 2000)"`
}

// Read returns a text file's lines numbered like cat -n, within a line and byte budget.
func Read(env Env) tool.Tool {
	checked := &checkedTargets{}
	return tool.New(tool.Def[ReadParams]{
		Info:  tool.Info{Name: "read", Description: readDescription, ReadOnly: true, Kind: tool.KindRead},
		Paths: func(p ReadParams) []string { return checked.report(env, p.Path) },
		Run: func(ctx context.Context, call tool.Call, p ReadParams) (tool.Result, error) {
			return readFile(env, checked, p)
		},
	})
}

func readFile(env Env, checked *checkedTargets, p ReadParams) (tool.Result, error) {
	if p.Offset < 0 || p.Limit < 0 {
		return tool.Errorf("offset and limit must be positive"), nil
	}
	offset := max(p.Offset, 1)
	limit := p.Limit
	if limit == 0 {
		limit = env.readLines()
	}
	t, refused := env.reach(checked, "read", p.Path)
	if refused != "" {
		return tool.Errorf("%s", refused), nil
	}
	path := t.real
	shown := env.display(t.named)

	f, err := openReal(t)
	if errors.Is(err, fs.ErrNotExist) {
		return tool.Errorf("%s does not exist%s", shown, suggest(t.named)), nil
	}
	if err != nil {
		return tool.Errorf("cannot open %s: %v", shown, err), nil
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return tool.Result{}, fmt.Errorf("stat %s: %w", path, err)
	}
	if info.IsDir() {
		return tool.Errorf("%s is a directory; use glob to list files", shown), nil
	}

	r := bufio.NewReaderSize(f, 64<<10)
	head, _ := r.Peek(sniffBytes)
	if isBinary(head) {
		return tool.Errorf("%s is a binary file (%d bytes); read only shows text", shown, info.Size()), nil
	}
	if info.Size() == 0 {
		return tool.Text(fmt.Sprintf("(%s is empty)", shown)), nil
	}

	var out strings.Builder
	budget := env.readBytes()
	lineNo, last := 0, 0
	stoppedEarly := false
	for {
		line, err := readLine(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			return tool.Result{}, fmt.Errorf("read %s: %w", path, err)
		}
		lineNo++
		if lineNo < offset || stoppedEarly {
			continue
		}
		if lineNo >= offset+limit {
			stoppedEarly = true
			continue
		}
		numbered := fmt.Sprintf("%6d\t%s\n", lineNo, line)
		if out.Len()+len(numbered) > budget && out.Len() > 0 {
			stoppedEarly = true
			continue
		}
		out.WriteString(numbered)
		last = lineNo
	}
	if offset > lineNo {
		return tool.Errorf("offset %d is past the end of %s, which has %d lines", offset, shown, lineNo), nil
	}
	res := tool.Result{Output: out.String()}
	if stoppedEarly {
		res.Truncated = true
		res.Output += fmt.Sprintf("\n[showing lines %d-%d of %d; to read on, call read with offset=%d]\n",
			offset, last, lineNo, last+1)
	}
	return res, nil
}

// readLine returns the next line without its line ending, cut to maxLineBytes with a
// marker, reading but discarding the rest of a longer line.
func readLine(r *bufio.Reader) (string, error) {
	var buf []byte
	cut := false
	for {
		chunk, err := r.ReadSlice('\n')
		nl := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		if nl {
			chunk = chunk[:len(chunk)-1]
		}
		room := maxLineBytes - len(buf)
		if len(chunk) > room {
			chunk, cut = chunk[:room], true
		}
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(buf) == 0 && !cut {
			return "", io.EOF
		}
		if err != nil && err != io.EOF {
			return "", err
		}
		break
	}
	line := strings.TrimSuffix(string(buf), "\r")
	if cut {
		line = strings.ToValidUTF8(line, "") + " [... line cut ...]"
	}
	return line, nil
}

// isBinary reports whether a file's first bytes look like anything but UTF-8 text.
func isBinary(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	// The sniff window may end inside a multi-byte character.
	for i := 0; i < utf8.UTFMax && len(head) > 0 && !utf8.Valid(head); i++ {
		head = head[:len(head)-1]
	}
	return !utf8.Valid(head)
}

// suggest lists names in the missing file's directory that look like what was meant:
// the same name in another case, the same stem with another extension, or a name that
// contains the other.
func suggest(path string) string {
	dir, base := filepath.Split(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return " (its directory does not exist either)"
		}
		return ""
	}
	lb := strings.ToLower(base)
	stem := strings.TrimSuffix(lb, filepath.Ext(lb))
	var hits []string
	for _, e := range entries {
		ln := strings.ToLower(e.Name())
		if ln == lb || strings.TrimSuffix(ln, filepath.Ext(ln)) == stem ||
			(len(stem) >= 3 && strings.Contains(ln, stem)) || (len(ln) >= 3 && strings.Contains(lb, ln)) {
			hits = append(hits, filepath.Join(dir, e.Name()))
		}
	}
	if len(hits) == 0 {
		return ""
	}
	sort.Strings(hits)
	if len(hits) > maxSuggestions {
		hits = hits[:maxSuggestions]
	}
	return "; did you mean: " + strings.Join(hits, ", ") + "?"
}
