package proctrack

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// stat is what KillLeftover and Started need of /proc/<pid>/stat.
type stat struct {
	pid   int
	state byte // R, S, D, Z, X, ...
	pgrp  int
	start uint64
}

// dead reports a process that has exited and waits to be reaped, or is being
// reaped: signals cannot reach it and it runs nothing.
func (s stat) dead() bool { return s.state == 'Z' || s.state == 'X' }

// StartTime returns when process pid started, in clock ticks since boot.
func StartTime(pid int) (uint64, error) {
	st, err := readStat(pid)
	if err != nil {
		return 0, err
	}
	return st.start, nil
}

func readStat(pid int) (stat, error) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, fmt.Errorf("read the start time of process %d: %w", pid, err)
	}
	st, err := parseStat(raw)
	if err != nil {
		return stat{}, fmt.Errorf("read the start time of process %d: %w", pid, err)
	}
	st.pid = pid
	return st, nil
}

// parseStat reads a /proc/<pid>/stat line: "pid (comm) state ppid pgrp ...". The
// command name may hold spaces and parentheses, so fields are counted from the
// last ')'; field 3 (state) is then the first, and field 22 (starttime) the 20th.
func parseStat(raw []byte) (stat, error) {
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return stat{}, fmt.Errorf("stat line %.40q has no ')' after the command name", raw)
	}
	f := bytes.Fields(raw[i+1:])
	if len(f) < 20 {
		return stat{}, fmt.Errorf("stat line has %d fields after the command name, want at least 20", len(f))
	}
	pgrp, err := strconv.Atoi(string(f[2]))
	if err != nil {
		return stat{}, fmt.Errorf("stat field 5 (pgrp) %q: %w", f[2], err)
	}
	start, err := strconv.ParseUint(string(f[19]), 10, 64)
	if err != nil {
		return stat{}, fmt.Errorf("stat field 22 (starttime) %q: %w", f[19], err)
	}
	return stat{state: f[0][0], pgrp: pgrp, start: start}, nil
}

// processes reads every process's stat; a process that exits while we look is
// skipped.
func processes() ([]stat, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	out := make([]stat, 0, len(names))
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue // not a process: /proc/self, /proc/meminfo, ...
		}
		if st, err := readStat(pid); err == nil {
			out = append(out, st)
		}
	}
	return out, nil
}

// BootID names the machine's current boot (/proc/sys/kernel/random/boot_id). Start
// times count from boot, so a Group recorded in another boot names nothing.
func BootID() (string, error) {
	raw, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return "", fmt.Errorf("read the boot id: %w", err)
	}
	return string(bytes.TrimSpace(raw)), nil
}
