//go:build !linux && !darwin

package sandbox

import "time"

// changedSince cannot read a change time here: every unknown entry counts as new.
func changedSince(string, time.Time) bool { return true }
