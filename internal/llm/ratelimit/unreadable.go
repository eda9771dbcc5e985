package ratelimit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// keepUnreadable copies a state file that could not be read to <path>.unreadable
// before it is rebuilt empty, so nothing of it is lost (throttle_state.json may be
// the original albert-code's), and returns err saying where the copy is. A copy
// made earlier is not overwritten: it holds the first unreadable version.
func keepUnreadable(path string, err error) error {
	data, rerr := os.ReadFile(path)
	if rerr != nil {
		return err
	}
	dst := path + ".unreadable"
	if _, serr := os.Stat(dst); !errors.Is(serr, fs.ErrNotExist) {
		return fmt.Errorf("%w; an earlier unreadable version is kept in %s", err, dst)
	}
	if werr := os.WriteFile(dst, data, 0o600); werr != nil {
		return err
	}
	return fmt.Errorf("%w; kept as %s", err, dst)
}
