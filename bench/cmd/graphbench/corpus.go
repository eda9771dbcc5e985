package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph/index"
)

// corpus is one tree the benchmark indexes: a private, writable copy (the
// incremental phase edits it), and the files the engine's own walk keeps there,
// which are also the files handed to ctags and to the parse floor.
type corpus struct {
	Name      string
	Origin    string // where the copy came from, with its version
	Dir       string
	List      string // Files, one path a line relative to Dir, for ctags -L and the floor
	Files     []index.File
	Lines     int
	Languages map[string]int // files per language
	// Filled by the full-index phase from the engine's report.
	GoTypes  bool
	GoErrors int
}

// describe scans c.Dir with the engine's walk (its .gitignore handling, limits and
// languages) and writes the file list at listPath.
func (c *corpus) describe(ctx context.Context, listPath string) error {
	scan, err := index.ScanTree(ctx, c.Dir, index.Limits{})
	if err != nil {
		return err
	}
	if len(scan.Files) == 0 {
		return fmt.Errorf("corpus %s: no source file the graph reads under %s", c.Name, c.Dir)
	}
	c.Files, c.Languages, c.Lines = scan.Files, map[string]int{}, 0
	var list strings.Builder
	for _, f := range scan.Files {
		src, err := os.ReadFile(filepath.Join(c.Dir, filepath.FromSlash(f.Rel)))
		if err != nil {
			return fmt.Errorf("corpus %s: %w", c.Name, err)
		}
		c.Lines += bytes.Count(src, []byte{'\n'})
		c.Languages[f.Language]++
		list.WriteString(f.Rel + "\n")
	}
	c.List = listPath
	return os.WriteFile(listPath, []byte(list.String()), 0o644)
}

// copyModule copies a module out of the read-only module cache.
func copyModule(gomodcache, module, dst string) (string, error) {
	path, version, ok := strings.Cut(module, "@")
	if !ok {
		return "", fmt.Errorf("module %q: want path@version", module)
	}
	src := filepath.Join(gomodcache, escapeModulePath(path)+"@"+version)
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
		return "", fmt.Errorf("module %s is not in the module cache (go mod download %s): %w", module, module, err)
	}
	return "module cache " + module, copyTree(src, dst)
}

// pinModules requires the given module versions in the module at dir and
// records their sums, offline, so that the module loads from the module cache.
func pinModules(ctx context.Context, dir string, pins []string) error {
	args := []string{"mod", "edit"}
	for _, p := range pins {
		args = append(args, "-require="+p)
	}
	for _, argv := range [][]string{args, {"list", "-e", "-deps", "-test", "./..."}} {
		cmd := exec.CommandContext(ctx, "go", argv...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s in %s: %w: %s", strings.Join(argv, " "), dir, err, tail(string(out)))
		}
	}
	return nil
}

// escapeModulePath is the module cache's case encoding: an upper-case letter
// becomes '!' and its lower case.
func escapeModulePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// copyRepository copies the files git would commit from the work tree at repo
// (tracked and untracked, not ignored), so that build outputs, node_modules and
// a local index stay out.
func copyRepository(ctx context.Context, repo, dst string) (string, error) {
	out, err := exec.CommandContext(ctx, "git", "-C", repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return "", fmt.Errorf("list the files of %s: %w", repo, err)
	}
	for rel := range strings.SplitSeq(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(repo, rel)
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the work tree, or a symlink
		}
		if err := copyFile(src, filepath.Join(dst, rel)); err != nil {
			return "", err
		}
	}
	origin := "this repository"
	if head, err := exec.CommandContext(ctx, "git", "-C", repo, "rev-parse", "--short", "HEAD").Output(); err == nil {
		origin += " at " + strings.TrimSpace(string(head)) + " (work tree)"
	}
	return origin, nil
}

// copyTree copies the regular files under src to dst, writable; symlinks and
// special files are left out.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return out.Close()
}

// sourceFiles lists the files in a language the floor's grammars read, which
// are the ones the incremental phase knows how to edit.
func (c *corpus) sourceFiles() []string {
	var out []string
	for _, f := range c.Files {
		if floorGrammars[f.Language] != nil {
			out = append(out, f.Rel)
		}
	}
	return out
}

func (c *corpus) languageOf(rel string) string {
	for _, f := range c.Files {
		if f.Rel == rel {
			return f.Language
		}
	}
	return ""
}
