package proctrack

import (
	"errors"
	"fmt"
	"syscall"
)

// KillLeftover sends SIGKILL to what is left of group g, and counts the processes
// it found alive, only when they are provably g's. It does not wait for them to go.
//
// Why the checks are enough. The kernel never hands out a PID that is still in use
// as a process ID, a group ID or a session ID. So:
//   - If process g.PGID exists with start time g.Start, it is our leader (a PID and
//     a start time name one process per boot). While it lives, no other process can
//     be g.PGID, and only g.PGID can create group g.PGID: every member is ours.
//   - If process g.PGID exists with another start time, the PID was reused. That
//     was only possible once group g.PGID had no member left: ours is gone, and any
//     group g.PGID now is the new process's. Nothing is killed.
//   - If process g.PGID is gone but group g.PGID has members, either our group
//     has lived on since the record (members outlived the leader), or it emptied,
//     g.PGID was handed out again (after the PID counter wrapped), and its new owner
//     made a group, forked and exited. The new owner's members then all started
//     after it, so after g.Start too: the start times cannot tell these apart, and
//     what makes the second case unlikely is the wrap (PIDs are allocated
//     cyclically) between the crash and the next start. What the start times do
//     rule out is a member older than our leader: it cannot descend from it, so
//     the group is not provably ours and ErrNotOurs is returned, killing nothing.
//
// A record from an earlier boot names nothing (start times count from boot); the
// caller checks the boot (see BootID). Between the scan and the kill, the group
// would have to empty and its ID be reused within microseconds, which the cyclic
// allocation rules out; the kill is sent to the group, so children forked since
// the scan are reached too.
func KillLeftover(g Group) (killed int, err error) {
	if g.PGID <= 1 {
		return 0, fmt.Errorf("kill leftover group %d: not a group a run can own (want a PID above 1)", g.PGID)
	}
	procs, err := processes()
	if err != nil {
		return 0, fmt.Errorf("kill leftover group %d: %w", g.PGID, err)
	}
	var leader *stat
	var members []stat
	for i, p := range procs {
		if p.pid == g.PGID {
			leader = &procs[i]
		}
		if p.pgrp == g.PGID && !p.dead() {
			members = append(members, p)
		}
	}
	switch {
	case leader != nil && leader.start != g.Start:
		return 0, nil // the PID was reused: our group is gone
	case leader == nil:
		for _, m := range members {
			if m.start < g.Start {
				return 0, fmt.Errorf("kill leftover group %d: process %d started before the recorded leader (%d < %d ticks): %w",
					g.PGID, m.pid, m.start, g.Start, ErrNotOurs)
			}
		}
	}
	if len(members) > 0 {
		if err := syscall.Kill(-g.PGID, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			return 0, fmt.Errorf("kill leftover group %d: %w", g.PGID, err)
		}
		killed = len(members)
	}
	// A leader that moved to another group is still ours.
	if leader != nil && leader.pgrp != g.PGID && !leader.dead() {
		if st, err := readStat(g.PGID); err == nil && st.start == g.Start {
			if syscall.Kill(g.PGID, syscall.SIGKILL) == nil {
				killed++
			}
		}
	}
	return killed, nil
}
