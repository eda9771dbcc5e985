// Command structmeasure prints the structure figures of issue 19's Measure for one
// commit: non-test Go lines per package, the files over 400 lines, the most complex
// and the largest functions (cyclomatic complexity counted as gocyclo counts it), the
// pairs of production code sharing 12 or more lines (the duplicates command), and how
// many Test functions of internal/app and its subpackages run the built binary.
//
//	go run ./bench/cmd/structmeasure -commit 10aa004   # a commit, checked out in a temporary git worktree
//	go run ./bench/cmd/structmeasure -dir .            # a folder as it is
//
// The report is Markdown, so it pastes into docs/benchmarks/code-structure.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "structmeasure:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	repo       string // the git repository -commit is read from
	commit     string
	dir        string // measure this folder instead of a commit
	topPkgs    int
	topFuncs   int
	longFile   int // a file over this many lines is counted as long
	dupLines   int
	duplicates string // the duplicates command; empty skips that figure
	dupSeconds int
	appDir     string // the folder whose tests are checked for the binary
}

func run(args []string, out io.Writer) error {
	var o options
	fs := flag.NewFlagSet("structmeasure", flag.ContinueOnError)
	fs.StringVar(&o.repo, "repo", ".", "the git repository holding -commit")
	fs.StringVar(&o.commit, "commit", "HEAD", "the commit to measure, checked out into a temporary git worktree removed afterwards")
	fs.StringVar(&o.dir, "dir", "", "measure this folder as it is instead of a commit")
	fs.IntVar(&o.topPkgs, "packages", 25, "how many packages to list, largest first")
	fs.IntVar(&o.topFuncs, "funcs", 15, "how many functions to list, most complex and largest")
	fs.IntVar(&o.longFile, "long", 400, "a file over this many lines counts as long")
	fs.IntVar(&o.dupLines, "dup-lines", 12, "the shared lines that make a duplicates pair")
	fs.StringVar(&o.duplicates, "duplicates", "duplicates", "the duplicates command (the tool library's); empty skips the pairs")
	fs.IntVar(&o.dupSeconds, "dup-seconds", 300, "how long duplicates may take")
	fs.StringVar(&o.appDir, "app", "internal/app", "the folder, with its subfolders, whose tests are checked for spawning the built binary")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q: name the commit with -commit or the folder with -dir", fs.Args())
	}
	root, title := o.dir, "folder "+o.dir
	if o.dir == "" {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		tree, remove, err := checkout(ctx, o.repo, o.commit)
		if err != nil {
			return err
		}
		defer remove()
		root = tree
		title, err = describe(ctx, o.repo, o.commit)
		if err != nil {
			return err
		}
	}
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		return fmt.Errorf("measure %s: not a folder (-dir names the folder to measure)", root)
	}
	r, err := measure(root, o)
	if err != nil {
		return err
	}
	return r.write(out, title, o)
}

// checkout adds a detached worktree of commit in a temporary folder; remove deletes
// it and its record in the repository.
func checkout(ctx context.Context, repo, commit string) (dir string, remove func(), err error) {
	parent, err := os.MkdirTemp("", "structmeasure-")
	if err != nil {
		return "", nil, err
	}
	dir = filepath.Join(parent, "tree")
	if _, err := git(ctx, repo, "worktree", "add", "--detach", dir, commit); err != nil {
		os.RemoveAll(parent)
		return "", nil, fmt.Errorf("check out %s from %s: %w (-commit names a commit of -repo)", commit, repo, err)
	}
	remove = func() {
		// The worktree's removal must survive a cancelled measure.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if _, err := git(ctx, repo, "worktree", "remove", "--force", dir); err != nil {
			fmt.Fprintln(os.Stderr, "structmeasure: remove the worktree:", err)
		}
		os.RemoveAll(parent)
	}
	return dir, remove, nil
}

// describe names a commit as its short hash, date and subject's first words.
func describe(ctx context.Context, repo, commit string) (string, error) {
	line, err := git(ctx, repo, "log", "-1", "--format=%h %cs %s", commit)
	if err != nil {
		return "", err
	}
	const most = 100 // a subject is a commit's whole story here; its start names it
	if r := []rune(line); len(r) > most {
		line = string(r[:most]) + "…"
	}
	return "commit " + line, nil
}

func git(ctx context.Context, repo string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", repo}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", errors.New("git " + strings.Join(args, " ") + ": " + msg)
	}
	return strings.TrimSpace(string(out)), nil
}
