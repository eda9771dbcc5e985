//go:build linux || darwin

package sandbox

import (
	"os"
	"syscall"
	"time"
)

// changedSince reports whether path's inode changed (was made, written, renamed or
// had its mode changed) at or after t. The change time, unlike the modification
// time, cannot be set back by the command (touch -d).
func changedSince(path string, t time.Time) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	return !changeTime(st).Before(t.Truncate(time.Second))
}
