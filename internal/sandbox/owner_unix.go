//go:build linux || darwin

package sandbox

import (
	"os"
	"syscall"
)

// ownedByMe reports whether path belongs to this process's user: /tmp is shared,
// and another user's directories are theirs to clean.
func ownedByMe(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// owner returns the uid that owns the file fi describes, or -1.
func owner(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// linkCount returns the number of hard links to the file fi describes.
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
