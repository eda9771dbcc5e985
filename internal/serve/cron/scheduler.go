package cron

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// Agent runs one request: the serve layer's runner on its backend, or a fake.
type Agent interface {
	Run(ctx context.Context, req backend.Request) (backend.Result, error)
}

// AgentFunc is a function that is an Agent.
type AgentFunc func(ctx context.Context, req backend.Request) (backend.Result, error)

// Run calls f.
func (f AgentFunc) Run(ctx context.Context, req backend.Request) (backend.Result, error) {
	return f(ctx, req)
}

// DefaultGrace is how long a stopping scheduler lets running jobs finish before
// it cancels them; the runner then gives their process groups its own few
// seconds between SIGTERM and SIGKILL. Judgement: 20 s plus those seconds fits
// Kubernetes' 30 s termination grace (Docker's 10 s needs --stop-timeout 30).
const DefaultGrace = 20 * time.Second

// maxSleep bounds one sleep, so that a wall clock set forward (or a machine
// waking from suspend) is noticed within a minute; judgement.
const maxSleep = time.Minute

// maxCatchUp bounds the count of missed ticks of one job; past it the count is
// a lower bound. A 1-second job asleep for 11 days stays under it.
const maxCatchUp = 1_000_000

// Options configure a Scheduler. Jobs, Root, Locks, Agent and HistoryDir are
// required.
type Options struct {
	Jobs []*Job
	// File names the job file in messages.
	File string
	// Root resolves job workspaces; Locks are the serve layer's workspace locks,
	// shared with the other modes.
	Root  *workspace.Root
	Locks *workspace.Locks
	Agent Agent
	// HistoryDir holds the run folders, the summaries and the inbox.
	HistoryDir string
	// Notifier sends the outcome of jobs with a telegram_chat_id; nil sends none.
	Notifier Notifier
	Clock    Clock         // nil: the machine's
	Grace    time.Duration // 0: DefaultGrace
	Logger   *slog.Logger  // nil: discard
	// Claims, when set, is asked before each tick fires: replicas sharing the job
	// file fire a tick only where the claim is won, so each tick runs once.
	Claims TickClaimer
	// Report, if set, hears of every run and skipped tick once it is recorded;
	// runs end in their own goroutines, so it may be called concurrently.
	Report func(Summary)
}

// TickClaimer hands each (job, tick) to one of the replicas that ask: the shared
// state on PostgreSQL.
type TickClaimer interface {
	ClaimTick(ctx context.Context, job string, tick time.Time) (bool, error)
}

// claimWait bounds a tick's claim; judgement: the database answers in
// milliseconds, and a tick held longer is late for its own schedule.
const claimWait = 10 * time.Second

// Scheduler fires jobs on their schedules. Each job runs at most once at a time:
// a tick while it still runs is skipped and recorded.
type Scheduler struct {
	opts    Options
	jobs    []*Job
	clock   Clock
	log     *slog.Logger
	hist    *history
	wg      sync.WaitGroup
	mu      sync.Mutex
	running map[string]bool
}

// New checks opts and returns a Scheduler for the enabled jobs. A workspace that
// does not exist is an error naming the job: it is made by hand, as a cron job
// writing into a folder it created by a typo would go unnoticed.
func New(opts Options) (*Scheduler, error) {
	switch {
	case opts.Root == nil, opts.Locks == nil, opts.Agent == nil:
		return nil, errors.New("cron: Root, Locks and Agent are required")
	case opts.HistoryDir == "":
		return nil, errors.New("cron: HistoryDir is required")
	}
	s := &Scheduler{opts: opts, clock: opts.Clock, log: opts.Logger, hist: &history{root: opts.HistoryDir}, running: map[string]bool{}}
	if s.clock == nil {
		s.clock = RealClock()
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.opts.Grace == 0 {
		s.opts.Grace = DefaultGrace
	}
	jobs, ps := CheckWorkspaces(cmp.Or(opts.File, "cron"), opts.Jobs, opts.Root)
	s.jobs = jobs
	if len(ps) > 0 {
		return nil, ps
	}
	return s, nil
}

// Run fires the jobs until ctx ends, then stops firing, lets running jobs finish
// within the grace period, cancels those still running, and returns once every
// job has ended and been recorded.
func (s *Scheduler) Run(ctx context.Context) error {
	// Jobs outlive ctx by the grace period, so they get a context of their own.
	jobsCtx, cancelJobs := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelJobs()
	next := make([]time.Time, len(s.jobs))
	now := s.clock.Now()
	for i, j := range s.jobs {
		next[i] = j.Schedule.Next(now)
	}
	s.log.Info("cron: scheduler started", "jobs", len(s.jobs))
	for {
		now = s.clock.Now()
		var wake time.Time
		for i, j := range s.jobs {
			if !next[i].IsZero() && !next[i].After(now) {
				last, missed := catchUp(j.Schedule, next[i], now)
				next[i] = j.Schedule.Next(last)
				s.fire(jobsCtx, j, last, missed)
			}
			if !next[i].IsZero() && (wake.IsZero() || next[i].Before(wake)) {
				wake = next[i]
			}
		}
		sleep := maxSleep
		if !wake.IsZero() {
			sleep = min(wake.Sub(now), maxSleep)
		}
		select {
		case <-ctx.Done():
			s.drain(cancelJobs)
			return nil
		case <-s.clock.After(sleep):
		}
	}
}

// catchUp returns the latest tick at or before now, starting from the due tick
// first, and how many ticks before it were passed over.
func catchUp(s Schedule, first, now time.Time) (time.Time, int) {
	last, missed := first, 0
	for missed < maxCatchUp {
		n := s.Next(last)
		if n.IsZero() || n.After(now) {
			break
		}
		last = n
		missed++
	}
	return last, missed
}

// fire starts a run of j for the tick at, unless its previous run still goes.
func (s *Scheduler) fire(ctx context.Context, j *Job, at time.Time, missed int) {
	if !s.claim(ctx, j, at) {
		return
	}
	if missed > 0 {
		s.log.Warn("cron: ticks missed, running the latest once", "job", j.Name, "missed", missed, "tick", at)
		s.record(&Summary{Job: j.Name, Status: StatusMissed, Schedule: j.Schedule.Spec, FiredAt: at, Missed: missed,
			Error: fmt.Sprintf("%d ticks passed before this one could fire (the machine slept or the clock jumped); they run once, now", missed)})
	}
	s.mu.Lock()
	busy := s.running[j.Name]
	if !busy {
		s.running[j.Name] = true
	}
	s.mu.Unlock()
	if busy {
		s.log.Warn("cron: previous run still active, skipping tick", "job", j.Name, "tick", at)
		s.record(&Summary{Job: j.Name, Status: StatusSkipped, Schedule: j.Schedule.Spec, FiredAt: at,
			Error: "the previous run of this job was still going"})
		return
	}
	s.wg.Go(func() {
		sum := s.execute(ctx, j, at)
		// The job is free before its run is reported, so whoever hears of the end
		// (a test, the benchmark) sees the next tick run.
		s.mu.Lock()
		delete(s.running, j.Name)
		s.mu.Unlock()
		s.record(sum)
	})
}

// drain waits for running jobs for the grace period, then cancels them and
// waits for them to end.
func (s *Scheduler) drain(cancelJobs context.CancelFunc) {
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		s.log.Info("cron: scheduler stopped")
		return
	case <-s.clock.After(s.opts.Grace):
	}
	s.log.Warn("cron: grace period over, stopping running jobs", "grace", s.opts.Grace)
	cancelJobs()
	<-done
	s.log.Info("cron: scheduler stopped")
}

// record appends s to its job's summary and reports it.
func (s *Scheduler) record(sum *Summary) {
	if err := s.hist.appendSummary(sum); err != nil {
		s.log.Error("cron: cannot record a run", "job", sum.Job, "err", err)
	}
	if s.opts.Report != nil {
		s.opts.Report(*sum)
	}
}

// claim reports whether this replica fires j's tick at. A claim that fails (the
// database unreachable) does not fire: a tick lost is logged, a tick run twice
// could not be undone.
func (s *Scheduler) claim(ctx context.Context, j *Job, at time.Time) bool {
	if s.opts.Claims == nil {
		return true
	}
	cctx, cancel := context.WithTimeout(ctx, claimWait)
	defer cancel()
	won, err := s.opts.Claims.ClaimTick(cctx, j.Name, at)
	if err != nil {
		s.log.Error("cron: cannot claim the tick, not firing it", "job", j.Name, "tick", at, "err", err)
		return false
	}
	if !won {
		s.log.Debug("cron: tick fired by another replica", "job", j.Name, "tick", at)
	}
	return won
}
