package proctrack

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestParseStatCountsFieldsFromTheLastParenthesis(t *testing.T) {
	t.Parallel()
	tail := " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 987654 0 0\n" // fields 7 to 21 are zero, 22 is the start
	cases := []struct {
		name, line string
		want       stat
	}{
		{"plain name", "42 (sleep) S 1 42 42" + tail, stat{state: 'S', pgrp: 42, start: 987654}},
		{"name with spaces and parentheses", "42 (a) b (c)) Z 1 7 42" + tail, stat{state: 'Z', pgrp: 7, start: 987654}},
	}
	for _, c := range cases {
		got, err := parseStat([]byte(c.line))
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
	bad := map[string]string{
		"no parenthesis":   "42 sleep S 1 42 42" + tail,
		"too few fields":   "42 (sleep) S 1 42 42 0 0",
		"pgrp not numeric": "42 (sleep) S 1 x 42" + tail,
		"start not number": strings.Replace("42 (sleep) S 1 42 42"+tail, "987654", "-1", 1),
	}
	for name, line := range bad {
		if _, err := parseStat([]byte(line)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// group starts script in a process group of its own, with its stdout readable
// line by line, and kills the group when the test ends.
func group(t *testing.T, script string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	t.Cleanup(func() {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return cmd, bufio.NewScanner(out)
}

// readPID reads the next line of a group's stdout as a PID.
func readPID(t *testing.T, sc *bufio.Scanner) int {
	t.Helper()
	if !sc.Scan() {
		t.Fatalf("the script printed no PID: %v", sc.Err())
	}
	pid, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// liveMembers counts the processes of group pgid that still run; a killed orphan
// that init has not reaped yet does not count.
func liveMembers(t *testing.T, pgid int) int {
	t.Helper()
	procs, err := processes()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range procs {
		if p.pgrp == pgid && !p.dead() {
			n++
		}
	}
	return n
}

// eventually waits up to 5 s for cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 5 s: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func alive(t *testing.T, pid int) bool {
	t.Helper()
	st, err := readStat(pid)
	return err == nil && !st.dead()
}

type recordingSink struct {
	mu             sync.Mutex
	started, ended []Group
}

func (s *recordingSink) Started(g Group) {
	s.mu.Lock()
	s.started = append(s.started, g)
	s.mu.Unlock()
}
func (s *recordingSink) Ended(g Group) { s.mu.Lock(); s.ended = append(s.ended, g); s.mu.Unlock() }

func TestStartedAndEndedReportToTheContextsSink(t *testing.T) {
	t.Parallel()
	cmd, _ := group(t, "exec sleep 30")
	pid := cmd.Process.Pid
	start, err := StartTime(pid)
	if err != nil {
		t.Fatal(err)
	}
	// The process started just now: its start time is the uptime, in ticks of
	// 1/100 s (USER_HZ, 100 on every Linux architecture Go supports).
	raw, err := os.ReadFile("/proc/uptime")
	if err != nil {
		t.Fatal(err)
	}
	uptime, err := strconv.ParseFloat(strings.Fields(string(raw))[0], 64)
	if err != nil {
		t.Fatal(err)
	}
	if ago := uptime - float64(start)/100; ago < 0 || ago > 5 {
		t.Errorf("start time %d ticks is %.2f s before the uptime %.2f s, want a moment ago", start, ago, uptime)
	}
	sink := &recordingSink{}
	ctx := WithSink(context.Background(), sink)
	g := Started(ctx, pid)
	if g != (Group{PGID: pid, Start: start}) {
		t.Errorf("Started: %+v, want pgid %d start %d", g, pid, start)
	}
	Ended(ctx, g)
	if len(sink.started) != 1 || sink.started[0] != g || len(sink.ended) != 1 || sink.ended[0] != g {
		t.Errorf("sink heard started %v, ended %v; want %v once each", sink.started, sink.ended, g)
	}
	if got := Started(context.Background(), pid); got != g {
		t.Errorf("without a sink: %+v, want %+v", got, g)
	}
}

func TestStartedIgnoresAProcessThatLeadsNoGroup(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("sleep", "30") // stays in the test's group
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sink := &recordingSink{}
	ctx := WithSink(context.Background(), sink)
	g := Started(ctx, cmd.Process.Pid)
	Ended(ctx, g)
	if !g.IsZero() || len(sink.started)+len(sink.ended) != 0 {
		t.Errorf("a process that leads no group: %+v, sink heard %v %v", g, sink.started, sink.ended)
	}
}

func TestKillLeftoverKillsTheRecordedGroup(t *testing.T) {
	t.Parallel()
	cmd, sc := group(t, "sleep 30 & echo $!; sleep 30 & echo $!; wait")
	children := []int{readPID(t, sc), readPID(t, sc)}
	g := Started(context.Background(), cmd.Process.Pid)
	n, err := KillLeftover(g)
	if err != nil || n != 3 {
		t.Fatalf("KillLeftover: %d, %v; want the shell and its two sleeps", n, err)
	}
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the leader ended with %v, want killed", err)
	}
	eventually(t, "the group's sleeps still run", func() bool {
		return liveMembers(t, g.PGID) == 0 && !alive(t, children[0]) && !alive(t, children[1])
	})
}

func TestKillLeftoverKillsMembersThatOutlivedTheLeader(t *testing.T) {
	t.Parallel()
	cmd, sc := group(t, "sleep 30 & echo $!")
	child := readPID(t, sc)
	g := Started(context.Background(), cmd.Process.Pid)
	if g.IsZero() {
		t.Fatal("the shell ended before it was recorded")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	n, err := KillLeftover(g)
	if err != nil || n != 1 {
		t.Fatalf("KillLeftover: %d, %v; want the orphaned sleep", n, err)
	}
	eventually(t, "the orphaned sleep still runs", func() bool { return !alive(t, child) })
}

func TestKillLeftoverNeverHitsAReusedPID(t *testing.T) {
	t.Parallel()
	cmd, _ := group(t, "exec sleep 30")
	pid := cmd.Process.Pid
	start, err := StartTime(pid)
	if err != nil {
		t.Fatal(err)
	}
	// The record of an older process that had this PID, or of a newer one: the
	// living process is another, and so is its group.
	for _, forged := range []Group{{PGID: pid, Start: start - 1}, {PGID: pid, Start: start + 1}} {
		n, err := KillLeftover(forged)
		if err != nil || n != 0 {
			t.Errorf("forged %+v: killed %d, %v; want nothing", forged, n, err)
		}
	}
	time.Sleep(50 * time.Millisecond) // a SIGKILL would have landed by now
	if !alive(t, pid) {
		t.Fatal("a process whose PID matched a forged record was killed")
	}
}

func TestKillLeftoverSparesAGroupWithAMemberOlderThanTheRecord(t *testing.T) {
	t.Parallel()
	cmd, sc := group(t, "sleep 30 & echo $!")
	child := readPID(t, sc)
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	childStart, err := StartTime(child)
	if err != nil {
		t.Fatal(err)
	}
	// The leader is gone; the record says it started after the sleep, which then
	// cannot be its descendant.
	n, err := KillLeftover(Group{PGID: cmd.Process.Pid, Start: childStart + 1})
	if !errors.Is(err, ErrNotOurs) || n != 0 || !strings.Contains(err.Error(), strconv.Itoa(child)) {
		t.Errorf("KillLeftover: %d, %v; want ErrNotOurs naming process %d", n, err, child)
	}
	time.Sleep(50 * time.Millisecond)
	if !alive(t, child) {
		t.Fatal("a member older than the record was killed")
	}
}

func TestKillLeftoverRefusesGroupsNoRunOwns(t *testing.T) {
	t.Parallel()
	for _, pgid := range []int{-5, 0, 1} {
		if n, err := KillLeftover(Group{PGID: pgid, Start: 1}); err == nil || n != 0 || !strings.Contains(err.Error(), "want a PID above 1") {
			t.Errorf("group %d: %d, %v", pgid, n, err)
		}
	}
}

func TestKillLeftoverOfAGoneGroupKillsNothing(t *testing.T) {
	t.Parallel()
	cmd, _ := group(t, "exit 0")
	g := Started(context.Background(), cmd.Process.Pid) // may be zero: the shell may be gone
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if g.IsZero() {
		g = Group{PGID: cmd.Process.Pid, Start: 1}
	}
	if n, err := KillLeftover(g); n != 0 || err != nil {
		t.Errorf("a gone group: %d, %v", n, err)
	}
}

func TestBootIDNamesThisBoot(t *testing.T) {
	t.Parallel()
	a, err := BootID()
	if err != nil || len(a) != 36 {
		t.Fatalf("boot id %q, %v; want a UUID", a, err)
	}
	if b, _ := BootID(); b != a {
		t.Errorf("boot id changed: %q then %q", a, b)
	}
}
