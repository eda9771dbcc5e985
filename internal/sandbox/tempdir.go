package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/proctrack"
)

// tempPrefix begins every private temporary directory's name, followed by the
// owning agent's PID and start time, so that a later agent can tell a directory
// whose owner died (kill -9 leaves no chance to remove it) from one in use.
const tempPrefix = "albert-code-sandbox-"

// makeTempDir makes this process's private temporary directory, after removing
// those that agents now dead left behind.
func makeTempDir() (string, error) {
	removeOrphanedTempDirs(os.TempDir())
	pid := os.Getpid()
	start, err := proctrack.StartTime(pid)
	if err != nil {
		start = 0 // no /proc: the name then says nothing a later sweep trusts
	}
	return os.MkdirTemp("", fmt.Sprintf("%s%d-%d-", tempPrefix, pid, start))
}

// removeOrphanedTempDirs removes the private temporary directories in dir that
// belong to this user and name an owner that is gone: no process with that PID, or
// one that started at another time (the PID was reused). A name it cannot read
// (another version's) and an owner it cannot check are left alone.
func removeOrphanedTempDirs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		pid, start, ok := parseTempName(e.Name())
		if !ok || !e.IsDir() || !ownedByMe(filepath.Join(dir, e.Name())) {
			continue
		}
		now, err := proctrack.StartTime(pid)
		switch {
		case err == nil && now == start:
			continue // its agent is running
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			continue // no way to know
		}
		if os.RemoveAll(filepath.Join(dir, e.Name())) == nil {
			removed = append(removed, filepath.Join(dir, e.Name()))
		}
	}
	return removed
}

// parseTempName reads the owner's PID and start time from a directory name made
// by makeTempDir.
func parseTempName(name string) (pid int, start uint64, ok bool) {
	rest, found := strings.CutPrefix(name, tempPrefix)
	if !found {
		return 0, 0, false
	}
	f := strings.SplitN(rest, "-", 3)
	if len(f) != 3 {
		return 0, 0, false
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return 0, 0, false
	}
	start, err = strconv.ParseUint(f[1], 10, 64)
	if err != nil || start == 0 {
		return 0, 0, false
	}
	return pid, start, true
}
