package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// dupResult is what the duplicates command said of the production files.
type dupResult struct {
	command string // as run, with the copy's folder written <production copy>
	output  string
	pairs   int    // -1 when the count could not be read
	skipped string // why it was not run, if it was not
}

// findDuplicates copies the production files into a folder of their own (outside
// git, so the command reads every file there) and asks the duplicates command for
// the pairs sharing o.dupLines lines or more. duplicates reports everything it
// reads, tests included, and has no filter of its own: hence the copy.
func findDuplicates(files []goFile, o options) dupResult {
	if o.duplicates == "" {
		return dupResult{pairs: -1, skipped: "-duplicates is empty"}
	}
	bin, err := exec.LookPath(o.duplicates)
	if err != nil {
		return dupResult{pairs: -1, skipped: fmt.Sprintf("%s is not on PATH (the tool library's command; -duplicates names it)", o.duplicates)}
	}
	dir, err := os.MkdirTemp("", "structmeasure-prod-")
	if err != nil {
		return dupResult{pairs: -1, skipped: err.Error()}
	}
	defer os.RemoveAll(dir)
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return dupResult{pairs: -1, skipped: err.Error()}
		}
		if err := os.WriteFile(path, f.src, 0o644); err != nil {
			return dupResult{pairs: -1, skipped: err.Error()}
		}
	}
	args := []string{"--min-lines", strconv.Itoa(o.dupLines), "--most", "200", "--seconds", strconv.Itoa(o.dupSeconds)}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(o.dupSeconds+60)*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--repo", dir}, args...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	res := dupResult{
		command: "duplicates --repo <production copy> " + strings.Join(args, " "),
		output:  strings.TrimSpace(string(out)),
		pairs:   pairCount(string(out)),
	}
	if err != nil {
		res.output += "\n(" + o.duplicates + " failed: " + err.Error() + ")"
	}
	return res
}

// pairCount reads the first line duplicates prints: "N pairs of places (…)" or
// "no duplicates (…)".
func pairCount(out string) int {
	first, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	if strings.HasPrefix(first, "no duplicates") {
		return 0
	}
	word, _, _ := strings.Cut(first, " ")
	n, err := strconv.Atoi(word)
	if err != nil {
		return -1
	}
	return n
}
