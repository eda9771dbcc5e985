package ratelimit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// File names under the state directory (the configuration home).
const (
	stateFileName    = "ratelimit_state.json"
	lockFileName     = "ratelimit.lock"
	throttleFileName = "throttle_state.json"
	stateVersion     = 1
)

// sharedState is the content of ratelimit_state.json: per account and model.
type sharedState struct {
	Version int                    `json:"version"`
	Models  map[string]*modelState `json:"models"`
}

func (s *sharedState) model(key string) *modelState {
	if s.Models == nil {
		s.Models = map[string]*modelState{}
	}
	m := s.Models[key]
	if m == nil {
		m = &modelState{}
		s.Models[key] = m
	}
	return m
}

// Store is the state shared by every albert-code process of the user: the windows
// in ratelimit_state.json and the daily-quota events in throttle_state.json, both
// read and written under one flock on ratelimit.lock.
type Store struct {
	dir string
	// mu serialises the goroutines of this process; the flock, the processes.
	mu sync.Mutex
	// warned remembers the files found corrupt, so each is reported once.
	warned map[string]bool
	// Warnings collects what a face should show: files found corrupt and rebuilt.
	warnings []string
	// lock is the open lock file, kept for the Store's life (one per process) so
	// that a call does not pay for opening it.
	lock *os.File
}

// NewStore keeps its files in dir, created on first use.
func NewStore(dir string) *Store { return &Store{dir: dir, warned: map[string]bool{}} }

// ThrottleStatePath is the file recording exhausted daily quotas.
func (s *Store) ThrottleStatePath() string { return filepath.Join(s.dir, throttleFileName) }

// Warnings returns, once, the problems met reading the state (a corrupt file
// rebuilt), for a face to show.
func (s *Store) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.warnings
	s.warnings = nil
	return w
}

// update runs fn on the state under the exclusive lock and writes back what fn
// changed. Entries with nothing left to say are dropped, so the file stays small.
func (s *Store) update(now time.Time, fn func(st *sharedState, th *throttleState)) error {
	return s.locked(true, func() error {
		st, th := s.read(now)
		fn(st, th)
		for key, m := range st.Models {
			m.prune(now)
			if m.idle(now) {
				delete(st.Models, key)
			}
		}
		th.forgetReset(now)
		if err := writeJSON(filepath.Join(s.dir, stateFileName), st); err != nil {
			return err
		}
		if !th.changed {
			return nil
		}
		return th.save(s.ThrottleStatePath())
	})
}

// view runs fn on a snapshot of the state under a shared lock. A corrupt file is
// rebuilt at once, under the exclusive lock, so the warning is true when shown.
func (s *Store) view(now time.Time, fn func(st *sharedState, th *throttleState)) error {
	var corrupt bool
	err := s.locked(false, func() error {
		n := len(s.warned)
		st, th := s.read(now)
		corrupt = len(s.warned) > n
		for _, m := range st.Models {
			m.prune(now)
		}
		th.forgetReset(now)
		if !corrupt {
			fn(st, th)
		}
		return nil
	})
	if err != nil || !corrupt {
		return err
	}
	return s.update(now, fn)
}

func (s *Store) locked(exclusive bool, fn func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil {
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			return fmt.Errorf("rate-limit state directory: %w", err)
		}
		f, err := os.OpenFile(filepath.Join(s.dir, lockFileName), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return fmt.Errorf("rate-limit lock: %w", err)
		}
		s.lock = f
	}
	f := s.lock
	if err := lockFile(f, exclusive); err != nil {
		return fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	defer func() { _ = unlockFile(f) }()
	return fn()
}

// read loads both files; a missing file is empty state, a corrupt one is rebuilt
// empty with a warning, since rate limiting must never stop the agent.
func (s *Store) read(now time.Time) (*sharedState, *throttleState) {
	st := &sharedState{Version: stateVersion}
	path := filepath.Join(s.dir, stateFileName)
	if err := readJSON(path, st); err != nil {
		s.warn(path, err)
		st = &sharedState{Version: stateVersion}
	}
	th := &throttleState{}
	if err := readJSON(s.ThrottleStatePath(), th); err != nil {
		s.warn(s.ThrottleStatePath(), keepUnreadable(s.ThrottleStatePath(), err))
		th = &throttleState{changed: true}
	}
	return st, th
}

func (s *Store) warn(path string, err error) {
	if s.warned[path] {
		return
	}
	s.warned[path] = true
	msg := fmt.Sprintf("%s was unreadable (%v); it has been rebuilt empty", path, err)
	slog.Warn("rate-limit state rebuilt", "file", path, "err", err)
	s.warnings = append(s.warnings, msg)
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(data) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// writeJSON rewrites path in place: the lock keeps readers out while it is half
// written, and a crash in between leaves a corrupt file that read rebuilds. It
// never truncates to zero: on ext4 (auto_da_alloc) a truncate-and-rewrite forces
// the blocks out at close; BenchmarkAcquire measured 5.3 ms a call that way and
// 0.52 ms in place.
func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if _, human := v.(*throttleState); human {
		// People read throttle_state.json; it is written once a day at most.
		data, err = json.MarshalIndent(v, "", "  ")
	}
	if err != nil {
		return err
	}
	data = append(data, '\n')
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("write rate-limit state: %w", err)
	}
	_, err = f.WriteAt(data, 0)
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write rate-limit state %s: %w", path, err)
	}
	return nil
}
