//go:build !unix

package ratelimit

import "os"

// lockFile is a no-op where flock does not exist: the state is then shared by the
// goroutines of one process only (Store's mutex), not across processes.
func lockFile(*os.File, bool) error { return nil }

func unlockFile(*os.File) error { return nil }
