package builtin

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/etalab-ia/albert-code/internal/fswalk"
	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed grep.md
var grepDescription string

const (
	defaultMaxMatches = 200
	// maxMaxMatches bounds what the model may ask for; the byte cap applies anyway.
	maxMaxMatches = 5000
	// maxGrepLineBytes cuts matched lines: a hit in minified code is a 100 kB line.
	maxGrepLineBytes = 500
	// maxGrepFileBytes skips huge files (logs, dumps, data), as `rg --max-filesize 10M`.
	maxGrepFileBytes = 10 << 20
)

// GrepParams are the arguments of the grep tool.
type GrepParams struct {
	Pattern    string `json:"pattern" jsonschema:"regular expression to search for (RE2 / ripgrep syntax)"`
	Path       string `json:"path,omitempty" jsonschema:"file or directory to search (default: the workspace)"`
	Glob       string `json:"glob,omitempty" jsonschema:"only search files matching this glob, e.g. *.go or src/**/*.ts"`
	IgnoreCase bool   `json:"ignore_case,omitempty" jsonschema:"match without regard to case"`
	MaxMatches int    `json:"max_matches,omitempty" jsonschema:"stop after this many matching lines (default 200)"`
}

// grepMatch is one matching line; both engines produce these, so they format alike.
type grepMatch struct {
	path string // absolute
	line int
	text string
}

// grepQuery is a validated search.
type grepQuery struct {
	root   string // real: links resolved
	target target
	skip   func(path string) bool // secret paths below root
	// secretsBelow are the secret paths below root, relative to it, for rg.
	secretsBelow []string
	re           *regexp.Regexp
	p            GrepParams
	maxMatches   int
}

// Grep searches file contents with ripgrep when it is on PATH, else with a Go engine
// that walks the tree the same way (see fswalk.Walk), so results do not depend on the
// machine.
func Grep(env Env) tool.Tool {
	checked := &checkedTargets{}
	return tool.New(tool.Def[GrepParams]{
		Info:  tool.Info{Name: "grep", Description: grepDescription, ReadOnly: true, Kind: tool.KindSearch},
		Paths: func(p GrepParams) []string { return checked.report(env, p.Path) },
		Run: func(ctx context.Context, call tool.Call, p GrepParams) (tool.Result, error) {
			return runGrep(ctx, env, checked, p)
		},
	})
}

func runGrep(ctx context.Context, env Env, checked *checkedTargets, p GrepParams) (tool.Result, error) {
	expr := p.Pattern
	if p.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return tool.Errorf("invalid regular expression %q: %v", p.Pattern, err), nil
	}
	if p.Glob != "" && !doublestar.ValidatePattern(strings.TrimPrefix(p.Glob, "!")) {
		return tool.Errorf("invalid glob %q", p.Glob), nil
	}
	if p.MaxMatches < 0 {
		return tool.Errorf("max_matches must be positive"), nil
	}
	t, refused := env.reach(checked, "grep", p.Path)
	if refused != "" {
		return tool.Errorf("%s", refused), nil
	}
	q := grepQuery{root: t.real, target: t, skip: env.skipSecret, re: re, p: p,
		maxMatches: min(orInt(p.MaxMatches, defaultMaxMatches), maxMaxMatches)}
	q.secretsBelow = env.secretsBelow(q.root)
	fi, err := os.Stat(q.root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return tool.Errorf("%s does not exist", env.display(t.named)), nil
		}
		return tool.Errorf("cannot search %s: %v", env.display(t.named), err), nil
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		// rg would wait on a FIFO as long as read did.
		return tool.Errorf("%s %v", env.display(t.named), errNotPlain), nil
	}

	var matches []grepMatch
	var bad string
	if rg, lookErr := exec.LookPath("rg"); lookErr == nil && !env.BuiltinGrep {
		matches, bad, err = grepRipgrep(ctx, rg, q)
	} else {
		matches, err = grepBuiltin(ctx, q)
	}
	if err != nil {
		return tool.Result{}, err
	}
	if bad != "" {
		return tool.Errorf("%s", bad), nil
	}
	if len(matches) == 0 {
		return tool.Text("No matches found."), nil
	}
	var sb strings.Builder
	for _, m := range matches[:min(len(matches), q.maxMatches)] {
		fmt.Fprintf(&sb, "%s:%d:%s\n", env.display(m.path), m.line, m.text)
	}
	out, truncated := tool.Cap(sb.String(), env.maxOutput())
	if len(matches) > q.maxMatches {
		truncated = true
		out += fmt.Sprintf("\n[stopped at %d matching lines; narrow the pattern, path or glob, or raise max_matches]\n", q.maxMatches)
	}
	return tool.Result{Output: out, Truncated: truncated}, nil
}

func (q grepQuery) skipPath(path string) bool { return q.skip != nil && q.skip(path) }

// grepBuiltin searches in Go, stopping one match past the limit so the caller can
// tell the output was cut.
func grepBuiltin(ctx context.Context, q grepQuery) ([]grepMatch, error) {
	var out []grepMatch
	errEnough := errors.New("enough matches")
	files, err := openTree(q.target)
	if err != nil {
		return nil, fmt.Errorf("grep %s: %w", q.root, err)
	}
	defer files.Close()
	over := skipping(q.root, q.skipPath, globOverride(q.p.Glob))
	err = fswalk.Walk(ctx, q.root, fswalk.Options{Override: over}, func(file, rel string, d fs.DirEntry) error {
		if info, err := d.Info(); err != nil || info.Size() > maxGrepFileBytes {
			return nil
		}
		data, err := files.read(file)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			return nil // unreadable or binary: skipped, as ripgrep does
		}
		for n := 1; len(data) > 0; n++ {
			var text []byte
			text, data, _ = bytes.Cut(data, []byte{'\n'})
			if q.re.Match(text) {
				out = append(out, grepMatch{path: file, line: n, text: cutLine(text)})
				if len(out) > q.maxMatches {
					return errEnough
				}
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("grep %s: %w", q.root, err)
	}
	return out, nil
}

// globOverride applies the glob filter the way ripgrep's --glob does, ahead of the
// ignore files: a pattern without a slash matches the name at any depth, one with a
// slash the path from the search root. A file matching a plain pattern is searched
// even if a .gitignore lists it; other files are skipped, while directories are still
// entered. A leading ! excludes matching files and directories instead.
func globOverride(glob string) fswalk.Override {
	if glob == "" {
		return nil
	}
	pattern, negate := strings.CutPrefix(glob, "!")
	pattern = strings.TrimPrefix(pattern, "/")
	return func(rel string, isDir bool) (decided, ignore bool) {
		match := globMatch(pattern, rel)
		switch {
		case negate:
			return match, match
		case match:
			return true, false
		default:
			return !isDir, true
		}
	}
}

func globMatch(pattern, rel string) bool {
	if !strings.Contains(pattern, "/") {
		rel = path.Base(rel)
	}
	ok, _ := doublestar.Match(pattern, rel)
	return ok
}

// cutLine trims a matched line's ending and cuts it to maxGrepLineBytes.
func cutLine(b []byte) string {
	b = bytes.TrimSuffix(b, []byte{'\r'})
	if len(b) <= maxGrepLineBytes {
		return string(b)
	}
	return strings.ToValidUTF8(string(b[:maxGrepLineBytes]), "") + " [... line cut ...]"
}
