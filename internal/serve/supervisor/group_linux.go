package supervisor

import (
	"bytes"
	"os"
	"strconv"
)

// liveMember scans /proc for a process of group pgid that is not a zombie.
func liveMember(pgid int) bool {
	d, err := os.Open("/proc")
	if err != nil {
		return true // cannot tell: assume alive, the caller's deadline bounds the wait
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return true
	}
	want := []byte(strconv.Itoa(pgid))
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + n + "/stat")
		if err != nil {
			continue // exited while we looked
		}
		// Fields after the command name (which may hold spaces and parentheses):
		// state ppid pgrp ...
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) < 3 || !bytes.Equal(f[2], want) {
			continue
		}
		if f[0][0] != 'Z' && f[0][0] != 'X' {
			return true
		}
	}
	return false
}
