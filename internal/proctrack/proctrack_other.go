//go:build !linux

package proctrack

import (
	"errors"
	"fmt"
)

// errNoProc: start times and group members are read from /proc, which only Linux
// has; elsewhere nothing is recorded, so nothing is left to kill.
var errNoProc = errors.New("process start times need Linux's /proc")

type stat struct {
	pgrp  int
	start uint64
}

func readStat(pid int) (stat, error) {
	return stat{}, fmt.Errorf("read the start time of process %d: %w", pid, errNoProc)
}

// StartTime returns when process pid started, in clock ticks since boot.
func StartTime(pid int) (uint64, error) {
	_, err := readStat(pid)
	return 0, err
}

// BootID names the machine's current boot.
func BootID() (string, error) { return "", fmt.Errorf("read the boot id: %w", errNoProc) }

// KillLeftover kills what is left of group g; without /proc it cannot prove a group
// is ours, so it kills nothing.
func KillLeftover(g Group) (int, error) {
	return 0, fmt.Errorf("kill leftover group %d: %w", g.PGID, errNoProc)
}
