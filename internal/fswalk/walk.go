// Package fswalk walks a directory tree the way ripgrep does by default with
// --hidden: .git is skipped, and .git/info/exclude, .gitignore, .ignore and .rgignore
// are honoured in the root, in every directory below it and above it. The grep and
// glob tools and the code-graph indexer all see a workspace through it, so they agree
// on what it contains.
package fswalk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	gitignore "github.com/sabhiram/go-gitignore"
)

// ignoreFiles are read in every directory, as ripgrep does, so grep's two engines
// and glob agree on what a workspace contains. Later files take precedence, as in
// ripgrep: .git/info/exclude < .gitignore < .ignore < .rgignore.
var ignoreFiles = []string{".git/info/exclude", ".gitignore", ".ignore", ".rgignore"}

// undecided is a match-everything pattern put before a layer's own lines, so that
// go-gitignore's answer tells three cases apart: ignored (a real pattern matched
// last), re-included (a negation matched last) and undecided (only this matched).
const undecided = "*"

// ignoreLayer is the ignore rules one directory contributes; patterns in it are
// relative to dir.
type ignoreLayer struct {
	dir     string
	matcher *gitignore.GitIgnore
}

// walker holds the ignore rules met so far. Rules in a deeper directory take precedence, so a nested `!keep.log` re-includes
// what a parent's `*.log` ignores; nothing below an ignored directory is visited.
type walker struct {
	layers map[string][]ignoreLayer // directory → rules in force there, outermost first
}

// Override decides about a path before the ignore files do, as ripgrep's --glob
// does; decided=false leaves the decision to them.
type Override func(rel string, isDir bool) (decided, ignore bool)

// Options refine a walk. The zero value walks like ripgrep.
type Options struct {
	// Override, when set, decides before the ignore files.
	Override Override
	// MaxDepth, when positive, skips directories nested deeper than this below root.
	MaxDepth int
	// OnSkip, when set, hears about what the walk leaves out for a reason other than
	// an ignore rule: unreadable entries, directories past MaxDepth, symbolic links
	// (ErrSymlink, ErrSymlinkLoop) and other files that are not regular
	// (ErrNotRegular). Without it they are skipped silently, as ripgrep does.
	OnSkip func(rel string, reason error)
	// OnDir, when set, is called with each directory the walk enters below root
	// (a watcher needs the directories, empty ones included, not only the files).
	OnDir func(path, rel string)
}

// The reasons OnSkip gets for what the walk does not enter or read, besides the
// file system's own errors.
var (
	// ErrTooDeep: a directory past Options.MaxDepth.
	ErrTooDeep = errors.New("directory nested deeper than the walk's limit")
	// ErrSymlink: a symbolic link, not followed (its target is walked where it
	// lies under root, if it does).
	ErrSymlink = errors.New("symbolic link, not followed")
	// ErrSymlinkLoop: a symbolic link that leads back to itself.
	ErrSymlinkLoop = errors.New("symbolic link loop")
	// ErrNotRegular: a socket, a named pipe or a device.
	ErrNotRegular = errors.New("not a regular file")
)

// Walk calls fn for every regular file under root that the ignore rules (and the
// override) keep, in lexical order. rel is the slash-separated path from root. A
// root that is a file is passed to fn as is: naming a file asks for it. Symbolic
// links are not followed, so a link loop cannot trap the walk.
func Walk(ctx context.Context, root string, opts Options, fn func(path, rel string, d fs.DirEntry) error) error {
	over := opts.Override
	info, err := os.Stat(root)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fn(root, filepath.Base(root), fs.FileInfoToDirEntry(info))
	}
	w := &walker{layers: map[string][]ignoreLayer{}}
	w.layers[root] = w.load(nil, ancestorsOf(root)...)
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			if opts.OnSkip != nil {
				rel, _ := filepath.Rel(root, path)
				opts.OnSkip(filepath.ToSlash(rel), err)
			}
			return nil // unreadable entries are skipped, as ripgrep does
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if path == root {
			return nil
		}
		layers := w.layers[filepath.Dir(path)]
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		skip := func(isDir bool) bool {
			if over != nil {
				if decided, ignore := over(rel, isDir); decided {
					return ignore
				}
			}
			return ignored(layers, path, isDir)
		}
		if d.IsDir() {
			if d.Name() == ".git" || skip(true) {
				return filepath.SkipDir
			}
			if opts.MaxDepth > 0 && strings.Count(rel, "/")+1 > opts.MaxDepth {
				if opts.OnSkip != nil {
					opts.OnSkip(rel, ErrTooDeep)
				}
				return filepath.SkipDir
			}
			w.layers[path] = w.load(layers, path)
			if opts.OnDir != nil {
				opts.OnDir(path, rel)
			}
			return nil
		}
		if skip(false) {
			return nil
		}
		if !d.Type().IsRegular() {
			if opts.OnSkip != nil {
				opts.OnSkip(rel, irregular(path, d))
			}
			return nil
		}
		return fn(path, rel, d)
	})
}

// irregular says why an entry that is not a regular file is left out. A link's
// target is resolved by the kernel, which bounds the hops, so a loop is an error
// (ELOOP), never a hang.
func irregular(path string, d fs.DirEntry) error {
	if d.Type()&fs.ModeSymlink == 0 {
		return fmt.Errorf("%w (%s)", ErrNotRegular, d.Type())
	}
	target, _ := os.Readlink(path)
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return fmt.Errorf("%w (-> %s)", ErrSymlinkLoop, target)
		}
		return fmt.Errorf("%w (-> %s, which does not exist)", ErrSymlink, target)
	}
	return fmt.Errorf("%w (-> %s)", ErrSymlink, target)
}

// load returns inherited plus the rules found in each of dirs (outermost first).
func (w *walker) load(inherited []ignoreLayer, dirs ...string) []ignoreLayer {
	out := inherited
	for _, dir := range dirs {
		lines := []string{undecided}
		for _, name := range ignoreFiles {
			if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
				lines = append(lines, strings.Split(string(b), "\n")...)
			}
		}
		if len(lines) > 1 {
			// A fresh slice: siblings must not share (and overwrite) one backing array.
			out = append(out[:len(out):len(out)], ignoreLayer{dir: dir, matcher: gitignore.CompileIgnoreLines(lines...)})
		}
	}
	return out
}

// ancestorsOf lists root and the directories above it, outermost first.
func ancestorsOf(root string) []string {
	var dirs []string
	for d := root; ; {
		dirs = append([]string{d}, dirs...)
		up := filepath.Dir(d)
		if up == d {
			return dirs
		}
		d = up
	}
}

// ignored asks the layers, deepest first, and the first that decides wins.
func ignored(layers []ignoreLayer, path string, isDir bool) bool {
	for i := len(layers) - 1; i >= 0; i-- {
		l := layers[i]
		rel, err := filepath.Rel(l.dir, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if isDir {
			rel += "/" // lets "build/" patterns, which only match directories, apply
		}
		match, how := l.matcher.MatchesPathHow(rel)
		switch {
		case !match:
			return false // a negation matched last: re-included
		case how.LineNo != 1:
			return true
		}
	}
	return false
}
