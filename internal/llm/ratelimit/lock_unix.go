//go:build unix

package ratelimit

import (
	"os"
	"syscall"
)

// lockFile takes an advisory lock on f, exclusive or shared, waiting for it: the
// other albert-code processes of the user hold it only while they read or write
// the state, a few microseconds.
func lockFile(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
