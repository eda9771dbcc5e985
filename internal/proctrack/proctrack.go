// Package proctrack names the process groups a run starts, so that a server that
// crashed can find and kill them at its next start without ever hitting a process
// that only reuses one of their PIDs. A Group is a leader's PID and start time; a
// Sink in the run's context hears of each group when it starts and when it ends.
package proctrack

import (
	"context"
	"errors"
)

// Group is a process group a run started: the leader's PID, which is the group's
// ID, and the leader's start time in clock ticks since boot (field 22 of
// /proc/<pid>/stat). The pair names one process for the life of the machine's boot:
// a PID is reused, a PID with the same start time is not.
type Group struct {
	PGID  int
	Start uint64
}

// IsZero reports whether g names no group: what Started returns when it could not
// read the process.
func (g Group) IsZero() bool { return g.PGID == 0 }

// Sink hears of the process groups of one run. Its methods are called from the
// goroutines that start commands, possibly at the same time, and must not block for
// long: the command waits.
type Sink interface {
	Started(Group)
	Ended(Group)
}

type sinkKey struct{}

// WithSink returns a context whose Started and Ended calls report to s.
func WithSink(ctx context.Context, s Sink) context.Context {
	return context.WithValue(ctx, sinkKey{}, s)
}

func sinkOf(ctx context.Context) Sink {
	s, _ := ctx.Value(sinkKey{}).(Sink)
	return s
}

// Started names the group led by pid, a process just started as its own group's
// leader, and reports it to the context's sink. It returns the zero Group, and
// reports nothing, when pid is gone or does not lead its group: recording a PID
// that is not a group ID would let a later KillLeftover aim at the wrong group.
func Started(ctx context.Context, pid int) Group {
	st, err := readStat(pid)
	if err != nil || st.pgrp != pid {
		return Group{}
	}
	g := Group{PGID: pid, Start: st.start}
	if s := sinkOf(ctx); s != nil {
		s.Started(g)
	}
	return g
}

// Ended tells the context's sink that g has no process left. The zero Group is
// ignored, so Ended(ctx, Started(ctx, pid)) is always safe.
func Ended(ctx context.Context, g Group) {
	if g.IsZero() {
		return
	}
	if s := sinkOf(ctx); s != nil {
		s.Ended(g)
	}
}

// ErrNotOurs says KillLeftover found processes in the group's ID that cannot be
// proven to come from the recorded group, and left them alone.
var ErrNotOurs = errors.New("process group not proven to be the recorded one")
