//go:build !linux

package sandbox

import "errors"

// dirWatcher is Linux's inotify; elsewhere the check after a command walks.
type dirWatcher struct{}

func newDirWatcher(string) (*dirWatcher, map[string]bool, error) {
	return nil, nil, errors.New("no inotify here")
}

func (*dirWatcher) changes(string) (map[string]bool, bool) { return nil, false }

func (*dirWatcher) close() {}
