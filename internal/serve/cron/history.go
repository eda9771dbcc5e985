package cron

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// runStampLayout prefixes each run folder. UTC, so that lexicographic order is
// chronological even across a daylight-saving change.
const runStampLayout = "20060102-150405"

// Files of a run folder.
const (
	metaFile     = "meta.json"
	stdoutFile   = "stdout.log"
	stderrFile   = "stderr.log"
	resultFile   = "result.txt"
	telegramFile = "telegram.json"
)

// Caps of what a summary line repeats from the run folder, where the whole is
// kept; judgement: enough to read the outcome in a `tail`.
const (
	summaryTextCap   = 4000
	summaryStderrCap = 2000
)

// hintRuns is how many earlier run folders the hint names; older ones are in the
// same folder and the summary file.
const hintRuns = 5

// history is the on-disk record of the runs: folders under history/<slug>/ and
// one JSONL summary per job.
type history struct {
	root string
	mu   sync.Mutex // serialises appends to the summaries and the inbox

	// known caches each job's run folders once listed: this process is the only
	// writer, and listing a folder of thousands of runs at every run made a day
	// of 100 jobs quadratic (measured with cronbench).
	knownMu sync.Mutex
	known   map[string][]string // slug + "/" + job -> run folders, oldest first
}

var slugRuns = regexp.MustCompile(`[^A-Za-z0-9]+`)

// workspaceSlug names a workspace's history folder after its absolute path, as
// the original did ("/workspace/foo bar" is "workspace_foo_bar").
func workspaceSlug(abs string) string {
	s := strings.Trim(slugRuns.ReplaceAllString(abs, "_"), "_")
	if s == "" {
		return "workspace"
	}
	return s
}

func runDirName(fired time.Time, job string) string {
	return fired.UTC().Format(runStampLayout) + "-" + job
}

// earlierRuns returns the run folders of job in the workspace slug, oldest
// first, read from disk once and then kept up to date by added.
func (h *history) earlierRuns(slug, job string) ([]string, error) {
	h.knownMu.Lock()
	defer h.knownMu.Unlock()
	key := slug + "/" + job
	if runs, ok := h.known[key]; ok {
		return runs, nil
	}
	runs, err := h.runsOf(slug, job)
	if err != nil {
		return nil, err
	}
	if h.known == nil {
		h.known = map[string][]string{}
	}
	h.known[key] = runs
	return runs, nil
}

// added records a new run folder of job, made after earlierRuns was called.
func (h *history) added(slug, job, dir string) {
	h.knownMu.Lock()
	defer h.knownMu.Unlock()
	key := slug + "/" + job
	if runs, ok := h.known[key]; ok {
		h.known[key] = append(runs[:len(runs):len(runs)], dir)
	}
}

// runsOf lists the run folders of exactly job under a workspace's history
// folder, oldest first. The original's glob "*-<name>" also caught "daily-<name>".
func (h *history) runsOf(slug, job string) ([]string, error) {
	dir := filepath.Join(h.root, "history", slug)
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list earlier runs of %s: %w", job, err)
	}
	var runs []string
	for _, e := range entries {
		name := e.Name()
		n := len(runStampLayout)
		if !e.IsDir() || len(name) <= n+1 || name[n] != '-' || name[n+1:] != job {
			continue
		}
		if _, err := time.Parse(runStampLayout, name[:n]); err != nil {
			continue
		}
		runs = append(runs, filepath.Join(dir, name))
	}
	slices.Sort(runs)
	return runs, nil
}

// hint tells the next run where this job's earlier runs are, so it can compare
// with them; empty when there are none.
func (h *history) hint(job string, runs []string) string {
	if len(runs) == 0 {
		return ""
	}
	recent := runs[max(0, len(runs)-hintRuns):]
	var b strings.Builder
	fmt.Fprintf(&b, "Earlier runs of this scheduled job (%s) are kept on disk: %d so far. ", job, len(runs))
	fmt.Fprintf(&b, "The most recent is %s. ", runs[len(runs)-1])
	fmt.Fprintf(&b, "Each run folder holds %s (the run's settings and outcome), %s, %s, %s (the final answer) and %s when a notification was sent; ",
		metaFile, stdoutFile, stderrFile, resultFile, telegramFile)
	fmt.Fprintf(&b, "folder names start with the UTC fire time, so sorting them by name sorts them by time. ")
	fmt.Fprintf(&b, "The latest ones:\n")
	for _, r := range recent {
		fmt.Fprintf(&b, "- %s\n", r)
	}
	fmt.Fprintf(&b, "One line per run, every run of this job: %s. ", h.summaryPath(job))
	b.WriteString("Read them only if comparing with earlier output helps the task.")
	return b.String()
}

func (h *history) summaryPath(job string) string {
	return filepath.Join(h.root, job+".jsonl")
}

// Summary is one line of a job's JSONL summary: a run, or a tick that did not run.
type Summary struct {
	Job      string `json:"job"`
	Status   Status `json:"status"`
	Schedule string `json:"schedule"`
	// FiredAt is the tick the line is about: the scheduled time, not when the
	// scheduler woke up.
	FiredAt    time.Time  `json:"fired_at"`
	StartedAt  *time.Time `json:"started_at,omitempty"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	ExitCode   *int       `json:"exit_code,omitempty"`
	// Stopped is cancelled, timeout or idle when the run was stopped.
	Stopped       string `json:"stopped,omitempty"`
	Text          string `json:"text,omitempty"`
	TextTruncated bool   `json:"text_truncated,omitempty"`
	Stderr        string `json:"stderr,omitempty"`
	HistoryDir    string `json:"history_dir,omitempty"`
	Error         string `json:"error,omitempty"`
	// Missed counts ticks that passed while the scheduler could not fire them
	// (the machine slept): they are coalesced into the one run that follows.
	Missed             int     `json:"missed,omitempty"`
	TelegramMessageIDs []int64 `json:"telegram_message_ids,omitempty"`
	NotifyError        string  `json:"notify_error,omitempty"`
}

// Status is what became of a tick.
type Status string

const (
	StatusOK     Status = "ok"
	StatusFailed Status = "failed"
	// StatusSkipped: the job's previous run was still going.
	StatusSkipped Status = "skipped"
	// StatusMissed: ticks that passed unfired; the latest one runs.
	StatusMissed Status = "missed"
)

func (h *history) appendSummary(s *Summary) error {
	line, err := json.Marshal(s)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := os.MkdirAll(h.root, 0o755); err != nil {
		return fmt.Errorf("write summary of %s: %w", s.Job, err)
	}
	f, err := os.OpenFile(h.summaryPath(s.Job), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("write summary of %s: %w", s.Job, err)
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write summary of %s: %w", s.Job, err)
	}
	return nil
}

// writeJSON writes v to path through a temporary file, so a reader never sees
// half of it.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// tail returns the last n bytes of s at most, never cutting a character.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// head returns the first n bytes of s at most, never cutting a character, and
// whether it cut.
func head(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}
