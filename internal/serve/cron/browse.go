package cron

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// JobState is a job as a viewer (the web console) shows it.
type JobState struct {
	Job *Job
	// Next is the job's next fire time after now; zero when it never fires again.
	Next    time.Time
	Running bool
}

// Jobs lists the scheduled jobs in the job file's order, with their next fire times.
func (s *Scheduler) Jobs() []JobState {
	now := s.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]JobState, 0, len(s.jobs))
	for _, j := range s.jobs {
		out = append(out, JobState{Job: j, Next: j.Schedule.Next(now), Running: s.running[j.Name]})
	}
	return out
}

// Job returns the scheduled job named name.
func (s *Scheduler) Job(name string) (*Job, bool) {
	for _, j := range s.jobs {
		if j.Name == name {
			return j, true
		}
	}
	return nil, false
}

// ErrNoSuchJob: no scheduled job has the name asked for.
var ErrNoSuchJob = errors.New("no such cron job")

// History returns the last limit lines of job's summary, newest first.
func (s *Scheduler) History(job string, limit int) ([]Summary, error) {
	if _, ok := s.Job(job); !ok {
		return nil, fmt.Errorf("%w: %q", ErrNoSuchJob, job)
	}
	f, err := os.Open(s.hist.summaryPath(job))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the history of %s: %w", job, err)
	}
	defer f.Close()
	var out []Summary
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var sum Summary
		if json.Unmarshal(sc.Bytes(), &sum) == nil {
			out = append(out, sum)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the history of %s: %w", job, err)
	}
	slices.Reverse(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// RunLogs are the logs a run folder keeps.
type RunLogs struct {
	Stdout, Stderr, Result string
	// Truncated is set when a file was longer than the cap given to RunLog.
	Truncated bool
}

// RunLog reads the logs of job's run fired at fired, each file up to limit bytes.
// Only run folders under this scheduler's history are read.
func (s *Scheduler) RunLog(job string, fired time.Time, limit int64) (RunLogs, error) {
	hist, err := s.History(job, 0)
	if err != nil {
		return RunLogs{}, err
	}
	i := slices.IndexFunc(hist, func(h Summary) bool { return h.FiredAt.Equal(fired) && h.HistoryDir != "" })
	if i < 0 {
		return RunLogs{}, fmt.Errorf("%w: job %s has no run folder fired at %s", os.ErrNotExist, job, fired.UTC().Format(time.RFC3339))
	}
	dir := hist[i].HistoryDir
	base := filepath.Join(s.hist.root, "history") + string(filepath.Separator)
	if !strings.HasPrefix(filepath.Clean(dir), base) {
		return RunLogs{}, fmt.Errorf("run folder %s is outside the cron history", dir)
	}
	var logs RunLogs
	for name, dst := range map[string]*string{stdoutFile: &logs.Stdout, stderrFile: &logs.Stderr, resultFile: &logs.Result} {
		text, cut, err := readCapped(filepath.Join(dir, name), limit)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return RunLogs{}, err
		}
		*dst, logs.Truncated = text, logs.Truncated || cut
	}
	return logs, nil
}

func readCapped(path string, limit int64) (string, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return string(b[:limit]), true, nil
	}
	return string(b), false, nil
}
