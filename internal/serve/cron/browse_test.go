package cron

import (
	"errors"
	"os"
	"testing"
	"time"
)

// A viewer sees each job's next fire time, its runs newest first and a run's
// logs; a job that does not exist is an error naming it.
func TestJobsHistoryAndRunLogForAViewer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	jobs := f.sched.Jobs()
	if len(jobs) != 1 || jobs[0].Job.Name != "report" || !jobs[0].Next.Equal(start.Add(time.Minute)) {
		t.Fatalf("jobs = %+v, want report next at %s", jobs, start.Add(time.Minute))
	}
	f.run()
	f.at(time.Minute)
	f.report()
	f.at(2 * time.Minute)
	f.report()
	hist, err := f.sched.History("report", 0)
	if err != nil || len(hist) != 2 || !hist[0].FiredAt.Equal(start.Add(2*time.Minute)) {
		t.Fatalf("history = %+v, %v; want 2 runs, the 12:02 one first", hist, err)
	}
	if one, _ := f.sched.History("report", 1); len(one) != 1 {
		t.Errorf("History(limit 1) gave %d runs", len(one))
	}
	logs, err := f.sched.RunLog("report", hist[1].FiredAt, 4)
	if err != nil || logs.Stdout != `{"ty` || logs.Stderr != "warn" || !logs.Truncated {
		t.Errorf("RunLog = %+v, %v; want stdout cut to 4 bytes, stderr \"warn\"", logs, err)
	}
	if _, err := f.sched.RunLog("report", start, 100); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("RunLog of a tick that never ran: %v, want not exist", err)
	}
	if _, err := f.sched.History("nope", 0); !errors.Is(err, ErrNoSuchJob) {
		t.Errorf("History(nope) = %v, want ErrNoSuchJob", err)
	}
}
