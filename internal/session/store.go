package session

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// Sentinel errors, checked with errors.Is.
var (
	// ErrNotFound: no session has this ID or prefix.
	ErrNotFound = errors.New("session not found")
	// ErrAmbiguous: the prefix matches several sessions.
	ErrAmbiguous = errors.New("ambiguous session prefix")
	// ErrNoSession: Latest found no session for the directory.
	ErrNoSession = errors.New("no session for this directory")
)

// listHint is what every "not found" error tells the user to run.
const listHint = `run "albert-code sessions list" to see the sessions`

// Store is a folder of sessions, normally ~/.albert-code/sessions. It holds no open
// files: several processes may share one store, each owning the sessions it appends to.
type Store struct {
	dir string
	now func() time.Time // injected by tests
	// scans counts the store-wide reads of Latest, for tests.
	scans atomic.Int64
}

// NewStore returns the store rooted at dir. The folder is created on first Create.
func NewStore(dir string) *Store {
	return &Store{dir: dir, now: time.Now}
}

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// Create starts a new session described by m (cwd, model, profile, parent, git
// fields; title is filled by the first user message if empty). The Store sets the
// ID, schema version, timestamps and message count.
func (s *Store) Create(m Meta) (*Log, error) {
	if err := os.MkdirAll(s.dir, dirMode); err != nil {
		return nil, fmt.Errorf("create session store %s: %w", s.dir, err)
	}
	now := s.now().UTC()
	var dir string
	// Mkdir, not MkdirAll: an existing folder means an ID collision, so draw again.
	// Three draws of 32 random bits colliding within one second does not happen.
	for range 3 {
		id, err := newID(now)
		if err != nil {
			return nil, err
		}
		d := filepath.Join(s.dir, id)
		if err = os.Mkdir(d, dirMode); err == nil {
			dir = d
			break
		} else if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("create session folder %s: %w", d, err)
		}
	}
	if dir == "" {
		return nil, fmt.Errorf("create session in %s: three ID collisions in a row; try again", s.dir)
	}
	m.SchemaVersion, m.ID = SchemaVersion, filepath.Base(dir)
	m.CreatedAt, m.UpdatedAt, m.MessageCount = now, now, 0
	m.Title = Title(m.Title)
	m.Cwd = cleanPath(m.Cwd)
	// meta.json first: a folder with meta and no log opens as an empty session,
	// while the reverse would be listed as broken.
	// Nothing is fsynced here: a session with no message yet loses nothing if a
	// machine crash takes it. The Log's background syncer makes meta.json and both
	// folder entries durable before the first message's fsync, and Flush and Close
	// wait for it, so creating a session costs a run no disk latency.
	if err := writeMeta(dir, m, deferred); err != nil {
		_ = os.RemoveAll(dir) // empty but for a temp file; don't leave a broken session
		return nil, err
	}
	markLatest(dir, m)
	touchComplete(s.dir)
	l, err := openLog(dir, m, s.now, nil)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	l.mu.Lock()
	l.pendingCreate = func() error {
		return errors.Join(syncFile(filepath.Join(dir, metaFile)), syncDir(dir), syncDir(s.dir))
	}
	l.scheduleSync()
	l.mu.Unlock()
	return l, nil
}

// Open resumes the session named by an ID, a unique prefix of one, or a unique prefix
// of its trailing hex part. It returns the log to append to and the history, repaired
// for the model (see Repair). A version 1 session is migrated first. What was fixed
// on the way (torn last line, repair, migration) is in the Log's Warnings.
func (s *Store) Open(idOrPrefix string) (*Log, []llm.Message, error) {
	id, err := s.Resolve(idOrPrefix)
	if err != nil {
		return nil, nil, err
	}
	dir := filepath.Join(s.dir, id)
	m, warnings, err := readMeta(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("open session %s: %w", id, err)
	}
	msgs, loadWarnings, err := loadMessages(filepath.Join(dir, messagesFile))
	if err != nil {
		return nil, nil, fmt.Errorf("open session %s: %w", id, err)
	}
	warnings = append(warnings, loadWarnings...)
	// messages.jsonl is the truth; meta's count may lag after a crash between the two.
	m.MessageCount = len(msgs)
	fixed, added, dropped := repair(msgs)
	if added+dropped > 0 {
		warnings = append(warnings, repairWarning(id, added, dropped))
	}
	l, err := openLog(dir, m, s.now, warnings)
	if err != nil {
		return nil, nil, err
	}
	return l, fixed, nil
}

// Resolve turns an ID or prefix into the one ID it names. An exact ID wins over
// prefixes. Matching ignores case.
func (s *Store) Resolve(idOrPrefix string) (string, error) {
	if err := checkRef(idOrPrefix); err != nil {
		return "", err
	}
	ids, err := s.ids()
	if err != nil {
		return "", err
	}
	var found []string
	for _, id := range ids {
		if id == idOrPrefix {
			return id, nil
		}
		if matches(id, idOrPrefix) {
			found = append(found, id)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("session %q not found in %s; %s: %w", idOrPrefix, s.dir, listHint, ErrNotFound)
	case 1:
		return found[0], nil
	}
	slices.Sort(found)
	shown := found
	const maxShown = 10 // enough to recognize the right one without flooding the screen
	more := ""
	if len(shown) > maxShown {
		shown, more = shown[:maxShown], fmt.Sprintf(" and %d more", len(found)-maxShown)
	}
	return "", fmt.Errorf("session prefix %q matches %d sessions: %s%s; type more of the id: %w",
		idOrPrefix, len(found), strings.Join(shown, ", "), more, ErrAmbiguous)
}

// ids lists the session folder names. Names starting with '.' are temp files and
// folders being deleted.
func (s *Store) ids() ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read session store %s: %w", s.dir, err)
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// Filter selects sessions for List. The zero Filter lists every top-level session.
type Filter struct {
	// Cwd keeps sessions started in this directory (compared after filepath.Clean).
	Cwd string
	// ParentID keeps the sub-agent sessions of this session.
	ParentID string
	// SubAgents also lists sub-agent sessions when ParentID is empty; by default they
	// are hidden, as nobody resumes a sub-agent directly.
	SubAgents bool
}

func (f Filter) keep(m Meta) bool {
	if f.Cwd != "" && cleanPath(m.Cwd) != cleanPath(f.Cwd) {
		return false
	}
	if f.ParentID != "" {
		return m.ParentID == f.ParentID
	}
	return f.SubAgents || m.ParentID == ""
}

// Broken is a session folder List could not read.
type Broken struct {
	ID  string
	Err error
}

// ListError reports the folders List skipped. List still returns every readable
// session with it, so a face shows the list and the problems side by side.
type ListError struct {
	Dir    string
	Broken []Broken
}

func (e *ListError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d session folder(s) in %s could not be read (the others are listed):", len(e.Broken), e.Dir)
	for _, x := range e.Broken {
		fmt.Fprintf(&b, "\n  %s: %v", x.ID, x.Err)
	}
	return b.String()
}

// List returns the sessions f keeps, most recently updated first (ties: newest ID
// first). Version 1 sessions are migrated on the way. A folder whose meta cannot be
// read does not hide the others: they are returned along with a *ListError naming it.
func (s *Store) List(f Filter) ([]Meta, error) {
	ids, err := s.ids()
	if err != nil {
		return nil, err
	}
	var metas []Meta
	var broken []Broken
	for _, id := range ids {
		m, _, err := readMeta(filepath.Join(s.dir, id))
		if err != nil {
			broken = append(broken, Broken{ID: id, Err: err})
			continue
		}
		if f.keep(m) {
			metas = append(metas, m)
		}
	}
	slices.SortFunc(metas, func(a, b Meta) int {
		return cmp.Or(b.UpdatedAt.Compare(a.UpdatedAt), strings.Compare(b.ID, a.ID))
	})
	if len(broken) > 0 {
		return metas, &ListError{Dir: s.dir, Broken: broken}
	}
	return metas, nil
}

// Latest returns the ID of the most recently updated top-level session started in
// cwd, or an error wrapping ErrNoSession. Unreadable folders are ignored here; List
// reports them. The directory's pointer file answers when it is still true; else the
// store is scanned and the pointer rewritten.
func (s *Store) Latest(cwd string) (string, error) {
	cwd = cleanPath(cwd)
	id, found, none := s.pointedLatest(cwd)
	if found {
		return id, nil
	}
	var metas []Meta
	var err error
	if !none {
		s.scans.Add(1)
		// The pointer folder is made first: making it changes the store folder.
		var before time.Time
		if os.MkdirAll(filepath.Join(s.dir, latestDir), dirMode) == nil {
			if st, serr := os.Stat(s.dir); serr == nil {
				before = st.ModTime()
			}
		}
		metas, err = s.List(Filter{})
		s.rebuildPointers(metas, before)
		metas = slices.DeleteFunc(metas, func(m Meta) bool { return !(Filter{Cwd: cwd}).keep(m) })
	}
	if len(metas) > 0 {
		return metas[0].ID, nil
	}
	var le *ListError
	if err != nil && !errors.As(err, &le) {
		return "", err
	}
	return "", fmt.Errorf("no session started in %s (store %s); start one, or %s: %w", cwd, s.dir, listHint, ErrNoSession)
}

// Delete removes the session with exactly this ID (use Resolve for a prefix). The
// folder is first renamed to a hidden name, so an interrupted delete never leaves a
// half-deleted session in the list.
func (s *Store) Delete(id string) error {
	if err := checkRef(id); err != nil {
		return err
	}
	dir := filepath.Join(s.dir, id)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("delete session %q: not found in %s; %s: %w", id, s.dir, listHint, ErrNotFound)
	}
	trash := filepath.Join(s.dir, ".deleted-"+id)
	if err := os.Rename(dir, trash); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	if err := syncDir(s.dir); err != nil {
		return err
	}
	if err := os.RemoveAll(trash); err != nil {
		return fmt.Errorf("delete session %s: renamed to %s but could not remove it: %w", id, trash, err)
	}
	touchComplete(s.dir)
	return nil
}

func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Clean(p)
}
