// Package cron runs agent jobs on a schedule for `albert-code serve`: the YAML
// job file and its strict validation, the schedules, the scheduler (an injected
// clock, overlapping ticks skipped and recorded), each run's history folder and
// per-job JSONL summary, the hint that points the next run at this job's past
// runs, and notifications through a Notifier.
package cron

import (
	"fmt"
	"os"
	"regexp"
	"time"
)

// Job is one validated job of a file, root defaults applied.
type Job struct {
	Name     string
	Schedule Schedule
	// Instruction, SystemPrompt and AppendSystemPrompt hold {job_name},
	// {system_datetime} and {workspace}, expanded at each run.
	Instruction        string
	Workspace          string
	Model              string
	Effort             string
	SystemPrompt       string
	AppendSystemPrompt string
	// NoContinue starts a fresh agent session; the default continues the
	// workspace's latest one, as the original did.
	NoContinue bool
	// TelegramChatID receives a notification after each run; 0 sends none.
	TelegramChatID int64
	// Timeout bounds a run; zero takes the server's default.
	Timeout time.Duration
	Enabled bool
	// Line is where the job starts in its file, for messages.
	Line int
}

// File is a validated job file.
type File struct {
	Path string
	Jobs []*Job
}

// DefaultWorkspace is the original's: the workspace root itself.
const DefaultWorkspace = "."

// namePattern is the original's: the name goes into folder and file names.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Load reads and validates the job file at path. now is when schedules are
// checked to fire at least once.
func Load(path string, now time.Time) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read cron file: %w", err)
	}
	return Parse(path, data, now)
}

// Enabled returns the jobs that are scheduled.
func (f *File) Enabled() []*Job {
	var jobs []*Job
	for _, j := range f.Jobs {
		if j.Enabled {
			jobs = append(jobs, j)
		}
	}
	return jobs
}
