//go:build unix

package runstore

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockPatience is how long a taken lock is retried before the store is said to be
// in use: long enough for a fork to reach its exec, short enough to be felt as now.
const lockPatience = 500 * time.Millisecond

// lockFile takes an exclusive advisory lock on path, held until unlock: the OS
// drops it when the process dies, so a crash leaves no stale lock.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	// A lock just released can still be held for an instant by a child process
	// forked before the release and not yet through its exec (which closes the
	// descriptor): a restart right after a stop must not be refused for that.
	for deadline := time.Now().Add(lockPatience); errors.Is(err, syscall.EWOULDBLOCK) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another albert-code serve uses this run store: stop it, or give this one its own file")
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
