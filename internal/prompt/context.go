package prompt

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Caps of the project context, so a huge folder or a dirty tree cannot crowd out the
// conversation. The original's [project_context] walked three levels and up to 1000
// files (notes §2.13); the top level and a few lines tell a model where it is, and it
// has tools to look further.
const (
	// maxEntries top-level names (judgement: a typical repository root fits).
	maxEntries = 50
	// maxStatusLines of git status (judgement).
	maxStatusLines = 20
	// recentCommits, the original's default_commit_count.
	recentCommits = 5
	// maxLine cuts each commit subject or status line (judgement).
	maxLine = 200
	// contextTimeout bounds all git work, the original's timeout_seconds.
	contextTimeout = 2 * time.Second
)

// ContextInput says what GatherContext may look at.
type ContextInput struct {
	Dir string
	// Home is the user's home folder: neither it nor / is summarised, as the original
	// refused to scan such "dangerous directories".
	Home string
	// Trusted lets git run in Dir. An untrusted repository's .git/config can make git
	// run its own commands (core.fsmonitor, filter drivers), so there only the folder
	// listing is given.
	Trusted bool
}

// GatherContext returns a short "# Project context" section: the folder's top-level
// entries, and in a trusted git repository the branch, the status and the latest
// commits. It spends at most contextTimeout; what git could not answer in time is left
// out, and outside a repository there is no git part at all.
func GatherContext(ctx context.Context, in ContextInput) string {
	var b strings.Builder
	b.WriteString("\n# Project context\n")
	if clean := filepath.Clean(in.Dir); clean == "/" || (in.Home != "" && clean == filepath.Clean(in.Home)) {
		fmt.Fprintf(&b, "The working directory %s is not a project folder: do not list or search it whole; ask the user which folder to work in.\n", in.Dir)
		return b.String()
	}
	writeEntries(&b, in.Dir)
	if in.Trusted {
		writeGit(ctx, &b, in.Dir)
	}
	return b.String()
}

func writeEntries(b *strings.Builder, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	var names []string
	for _, e := range entries {
		if e.Name() == ".git" {
			continue
		}
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		b.WriteString("The working directory is empty.\n")
		return
	}
	shown := names[:min(len(names), maxEntries)]
	fmt.Fprintf(b, "Top-level entries (%d of %d): %s\n", len(shown), len(names), strings.Join(shown, " "))
}

func writeGit(ctx context.Context, b *strings.Builder, dir string) {
	ctx, cancel := context.WithTimeout(ctx, contextTimeout)
	defer cancel()
	// The three questions are independent: asked at once, they cost one git start.
	var branch, status, log string
	var wg sync.WaitGroup
	wg.Go(func() { branch = git(ctx, dir, "rev-parse", "--abbrev-ref", "HEAD") })
	wg.Go(func() { status = git(ctx, dir, "status", "--porcelain", "--untracked-files=normal") })
	wg.Go(func() {
		log = git(ctx, dir, "log", "-n", fmt.Sprint(recentCommits), "--no-decorate", "--format=%h %s")
	})
	wg.Wait()
	if branch == "" {
		return // not a repository, no git, no commit yet, or too slow
	}
	fmt.Fprintf(b, "Git branch: %s\n", branch)
	lines := nonEmptyLines(status)
	if len(lines) == 0 {
		b.WriteString("Git status: clean\n")
	} else {
		shown := lines[:min(len(lines), maxStatusLines)]
		fmt.Fprintf(b, "Git status (%d of %d changed paths):\n%s\n", len(shown), len(lines), strings.Join(shown, "\n"))
	}
	if commits := nonEmptyLines(log); len(commits) > 0 {
		fmt.Fprintf(b, "Recent commits:\n%s\n", strings.Join(commits, "\n"))
	}
}

// git runs one read-only git command; any failure is "", as no git is.
// --no-optional-locks keeps status from rewriting the index under the user's own git.
func git(ctx context.Context, dir string, args ...string) string {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--no-optional-locks", "-c", "color.ui=false", "-c", "core.quotepath=off"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	cmd.WaitDelay = 100 * time.Millisecond
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimRight(string(out), "\n")
}

func nonEmptyLines(s string) []string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimRight(l, " \r"); l != "" {
			if len(l) > maxLine {
				l = cutUTF8(l, maxLine) + "…"
			}
			out = append(out, l)
		}
	}
	return out
}

func cutUTF8(s string, n int) string {
	for n > 0 && n < len(s) && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n]
}
