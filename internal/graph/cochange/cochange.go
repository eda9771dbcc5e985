// Package cochange reads git history for the files that change together with a
// given one: coupling the call graph cannot see (a handler and its template, a
// schema and its migration).
package cochange

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// bulkCommit is the number of files past which a commit is left out: reformatting,
// renames and vendoring touch everything and say nothing about coupling (a
// judgement call, the order of magnitude the peer uses).
const bulkCommit = 50

// Partner is a file that changed together with the target.
type Partner struct {
	File string `json:"file"`
	// Count is the number of commits that changed both files.
	Count int `json:"count"`
	// Coupling is Count over the number of commits that changed the target: how
	// often a change to the target came with a change to this file.
	Coupling float64 `json:"coupling"`
	// Jaccard is Count over the commits that changed either file.
	Jaccard float64 `json:"jaccard"`
}

// Result is the answer for one file.
type Result struct {
	File string `json:"file"`
	// Commits is how many commits (of those read) changed the file.
	Commits int `json:"commits"`
	// Read and Skipped count the commits read and those left out as bulk changes.
	Read     int       `json:"commits_read"`
	Skipped  int       `json:"bulk_commits_skipped"`
	Partners []Partner `json:"partners"`
}

// Compute reads the last maxCommits commits of the repository at root (merges left
// out) and ranks the files that changed with file (relative to root) by count, then
// coupling. Partners seen only once are dropped unless the file changed once.
func Compute(ctx context.Context, root, file string, maxCommits int) (*Result, error) {
	file = filepath.ToSlash(filepath.Clean(file))
	out, err := exec.CommandContext(ctx, "git", "-C", root, "log", "--no-merges", "--name-only",
		"--no-renames", "--format=%x00", fmt.Sprintf("-n%d", maxCommits)).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return nil, fmt.Errorf("git log in %s: %s", root, strings.TrimSpace(string(ee.Stderr)))
		}
		return nil, fmt.Errorf("git log in %s: %w", root, err)
	}
	commits := parseLog(out)
	res := &Result{File: file, Partners: []Partner{}}
	together := map[string]int{}
	touched := map[string]int{}
	for _, files := range commits {
		res.Read++
		if len(files) > bulkCommit {
			res.Skipped++
			continue
		}
		for f := range files {
			touched[f]++
		}
		if !files[file] {
			continue
		}
		res.Commits++
		for f := range files {
			if f != file {
				together[f]++
			}
		}
	}
	for f, n := range together {
		if n < 2 && res.Commits > 1 {
			continue
		}
		union := res.Commits + touched[f] - n
		res.Partners = append(res.Partners, Partner{File: f, Count: n,
			Coupling: float64(n) / float64(res.Commits), Jaccard: float64(n) / float64(union)})
	}
	sort.Slice(res.Partners, func(i, j int) bool {
		a, b := res.Partners[i], res.Partners[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Jaccard != b.Jaccard {
			return a.Jaccard > b.Jaccard
		}
		return a.File < b.File
	})
	return res, nil
}

// parseLog splits `git log --name-only --format=%x00` output into one set of paths
// per commit.
func parseLog(out []byte) []map[string]bool {
	var commits []map[string]bool
	var cur map[string]bool
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "\x00") {
			cur = map[string]bool{}
			commits = append(commits, cur)
			line = strings.TrimPrefix(line, "\x00")
		}
		if line = strings.TrimSpace(line); line != "" && cur != nil {
			cur[line] = true
		}
	}
	return commits
}
