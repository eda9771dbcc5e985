//go:build linux

package index

import (
	"io/fs"
	"syscall"
)

func sysTimes(info fs.FileInfo) (ctime int64, ino uint64) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return st.Ctim.Nano(), st.Ino
}
