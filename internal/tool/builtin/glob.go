package builtin

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/etalab-ia/albert-code/internal/fswalk"
	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed glob.md
var globDescription string

// maxGlobResults bounds the listing: a thousand paths already cost ~15k tokens and
// say the pattern is too broad.
const maxGlobResults = 1000

// GlobParams are the arguments of the glob tool.
type GlobParams struct {
	Pattern string `json:"pattern" jsonschema:"glob pattern such as **/*.go or src/*.{ts,tsx}"`
	Path    string `json:"path,omitempty" jsonschema:"directory to search from (default: the workspace)"`
}

// Glob lists files whose path below Path matches a doublestar pattern, honouring
// ignore files exactly as grep does.
func Glob(env Env) tool.Tool {
	checked := &checkedTargets{}
	return tool.New(tool.Def[GlobParams]{
		Info:  tool.Info{Name: "glob", Description: globDescription, ReadOnly: true, Kind: tool.KindSearch},
		Paths: func(p GlobParams) []string { return checked.report(env, globRoot(env, p)) },
		Run: func(ctx context.Context, call tool.Call, p GlobParams) (tool.Result, error) {
			return runGlob(ctx, env, checked, p)
		},
	})
}

// globRoot is where the walk starts: Path, or the fixed prefix of an absolute pattern.
func globRoot(env Env, p GlobParams) string {
	if filepath.IsAbs(p.Pattern) {
		base, _ := doublestar.SplitPattern(filepath.ToSlash(p.Pattern))
		return filepath.Clean(filepath.FromSlash(base))
	}
	return env.resolve(p.Path)
}

func runGlob(ctx context.Context, env Env, checked *checkedTargets, p GlobParams) (tool.Result, error) {
	t, refused := env.reach(checked, "glob", globRoot(env, p))
	if refused != "" {
		return tool.Errorf("%s", refused), nil
	}
	root := t.real
	pattern := strings.TrimPrefix(filepath.ToSlash(p.Pattern), "./")
	if filepath.IsAbs(p.Pattern) {
		_, pattern = doublestar.SplitPattern(filepath.ToSlash(p.Pattern))
	}
	if !doublestar.ValidatePattern(pattern) {
		return tool.Errorf("invalid glob pattern %q", p.Pattern), nil
	}
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		if errors.Is(err, fs.ErrNotExist) {
			return tool.Errorf("%s does not exist", env.display(t.named)), nil
		}
		return tool.Errorf("%s is not a directory", env.display(t.named)), nil
	}
	var found []string
	over := skipping(root, env.skipSecret, nil)
	err := fswalk.Walk(ctx, root, fswalk.Options{Override: over}, func(path, rel string, d fs.DirEntry) error {
		if ok, _ := doublestar.Match(pattern, rel); ok {
			found = append(found, env.display(path))
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return tool.Result{}, ctx.Err()
		}
		return tool.Result{}, fmt.Errorf("glob %s: %w", root, err)
	}
	if len(found) == 0 {
		return tool.Text("No files found."), nil
	}
	sort.Strings(found)
	res := tool.Result{}
	shown := found[:min(len(found), maxGlobResults)]
	res.Output, res.Truncated = tool.Cap(strings.Join(shown, "\n")+"\n", env.maxOutput())
	if len(found) > len(shown) {
		res.Truncated = true
		res.Output += fmt.Sprintf("[%d more files not shown; use a narrower pattern or path]\n", len(found)-len(shown))
	}
	return res, nil
}
