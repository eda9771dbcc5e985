package sandbox

import (
	"errors"
	"io/fs"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dirWatcher follows, with inotify, the entries made in every folder of the
// workspace (outside .git folders), so that the check after a command looks at
// what the command made instead of walking the whole tree again (140 ms on a
// 48,000-entry repository on a loaded machine, for every command).
type dirWatcher struct {
	fd   int
	dirs map[int]string // watch descriptor -> folder
}

// watchMask: an entry made or moved in, a folder moved away (its descriptor's path
// is then stale), the queue overflowing.
const watchMask = unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_MOVED_FROM | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// newDirWatcher watches every folder below ws and returns the control entries it
// met on the way, or an error when inotify is not available or has too few
// watches left (the caller then walks after each command).
func newDirWatcher(ws string) (*dirWatcher, map[string]bool, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, nil, err
	}
	w := &dirWatcher{fd: fd, dirs: map[int]string{}}
	found := map[string]bool{}
	if err := w.add(ws, ws, found); err != nil {
		w.close()
		return nil, nil, err
	}
	return w, found, nil
}

// add watches dir and every folder below it, and notes the control entries below
// ws in found.
func (w *dirWatcher) add(ws, dir string, found map[string]bool) error {
	var failed error
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > maxScanEntries {
			failed = errors.New("too many entries to watch")
			return filepath.SkipAll
		}
		if p != ws && isControlName(d.Name()) && filepath.Dir(p) != ws {
			found[p] = true
		}
		if !d.IsDir() {
			return nil
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		wd, err := unix.InotifyAddWatch(w.fd, p, watchMask)
		if err != nil {
			failed = err
			return filepath.SkipAll
		}
		w.dirs[wd] = p
		return nil
	})
	return failed
}

// changes returns the control entries below ws made since the last call, with the
// folders made or moved in walked whole. ok is false when the events cannot be
// trusted (a folder moved, the queue overflowed): the caller walks instead.
func (w *dirWatcher) changes(ws string) (found map[string]bool, ok bool) {
	found = map[string]bool{}
	ok = true
	buf := make([]byte, 64*1024)
	for {
		n, err := unix.Read(w.fd, buf)
		if err != nil || n <= 0 {
			return found, ok // EAGAIN: nothing more queued
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			nameBytes := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
			off += unix.SizeofInotifyEvent + int(ev.Len)
			name := string(nameBytes[:clen(nameBytes)])
			dir, known := w.dirs[int(ev.Wd)]
			switch {
			case ev.Mask&unix.IN_Q_OVERFLOW != 0:
				ok = false
			case ev.Mask&unix.IN_IGNORED != 0:
				delete(w.dirs, int(ev.Wd))
			case !known || name == "":
			case ev.Mask&unix.IN_MOVED_FROM != 0:
				if ev.Mask&unix.IN_ISDIR != 0 {
					ok = false // the folders below it now have other paths
				}
			default:
				p := filepath.Join(dir, name)
				if dir != ws && isControlName(name) {
					found[p] = true
				}
				if ev.Mask&unix.IN_ISDIR != 0 && name != ".git" {
					if err := w.add(ws, p, found); err != nil {
						ok = false
					}
				}
			}
		}
	}
}

func (w *dirWatcher) close() {
	if w != nil {
		unix.Close(w.fd)
	}
}

// clen is the length of the NUL-padded name.
func clen(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return len(b)
}
