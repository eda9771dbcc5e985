package supervisor

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// groupPoll is how often a stopping group is checked; judgement: fast enough that a
// cancel returns within a few tens of milliseconds, rare enough to cost nothing.
const groupPoll = 10 * time.Millisecond

// guardianKill is how long the guardian gets to kill the tree after the second
// SIGTERM; it needs one pass over /proc.
const guardianKill = 100 * time.Millisecond

// killWait bounds the wait after SIGKILL; the kernel delivers it at once, so only a
// process stuck in uninterruptible sleep (a dead NFS mount) can outlast it.
const killWait = 5 * time.Second

// stopGroup takes down process group pgid: SIGTERM, up to grace for the group to leave,
// then SIGKILL. leaderDone is closed once the main process has been reaped; the group
// counts as gone only then, since an unreaped leader still holds the group.
func stopGroup(pgid int, grace time.Duration, leaderDone <-chan struct{}) (killed bool, leftover error) {
	if err := syscall.Kill(-pgid, syscall.SIGTERM); errors.Is(err, syscall.ESRCH) {
		<-leaderDone
		return false, nil
	}
	if waitGone(pgid, grace, leaderDone) {
		return false, nil
	}
	// A second SIGTERM makes the sandbox's guardian kill the whole tree at once,
	// processes that left the group included, before the group's own SIGKILL
	// takes the guardian too.
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	if waitGone(pgid, guardianKill, leaderDone) {
		return true, nil
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	if waitGone(pgid, killWait, leaderDone) {
		return true, nil
	}
	return true, fmt.Errorf("process group %d still has live processes %v after SIGKILL", pgid, killWait)
}

// waitGone polls until the leader is reaped and no live process remains in the group,
// or d passes.
func waitGone(pgid int, d time.Duration, leaderDone <-chan struct{}) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(groupPoll)
	defer tick.Stop()
	reaped := false
	for {
		if !reaped {
			select {
			case <-leaderDone:
				reaped = true
			default:
			}
		}
		if reaped && !groupAlive(pgid) {
			return true
		}
		select {
		case <-deadline.C:
			return false
		case <-leaderDone:
			reaped = true
		case <-tick.C:
		}
	}
}

// groupAlive reports whether group pgid has a process that is not a zombie. Zombies
// are skipped: once killed, an orphan waits for init to reap it, and an init that
// never reaps (some containers) must not make a stop hang.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	return liveMember(pgid)
}
