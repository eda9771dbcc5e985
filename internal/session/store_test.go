package session

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCreateID(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	a := mustCreate(t, s, Meta{})
	b := mustCreate(t, s, Meta{})
	re := regexp.MustCompile(`^20261130T04520[0-9]-[0-9a-f]{8}$`)
	for _, id := range []string{a.ID(), b.ID()} {
		if !re.MatchString(id) {
			t.Errorf("id %q does not look like 20261130T045201-1a2b3c4d", id)
		}
	}
	if a.ID() == b.ID() {
		t.Errorf("two sessions share id %s", a.ID())
	}
	if a.ID() >= b.ID() {
		t.Errorf("ids do not sort by creation time: %s then %s", a.ID(), b.ID())
	}
	if m := a.Meta(); m.ID != a.ID() || m.SchemaVersion != SchemaVersion || m.CreatedAt.IsZero() {
		t.Errorf("new meta = %+v", m)
	}
	if st, err := os.Stat(a.Dir()); err != nil || st.Mode().Perm() != dirMode {
		t.Errorf("session folder mode = %v, %v; want %v", st.Mode().Perm(), err, dirMode)
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	for _, id := range []string{
		"20261130T045200-1a2b3c4d",
		"20261130T045300-1a2bffff",
		"20261201T101010-deadbeef",
		"session_20260312_101500_9f8e7d6c", // the original tool's folder name
	} {
		mkSession(t, s, Meta{ID: id})
	}
	tests := []struct {
		ref     string
		want    string
		wantErr error
		errHas  []string
	}{
		{ref: "20261130T045200-1a2b3c4d", want: "20261130T045200-1a2b3c4d"},
		{ref: "20261201", want: "20261201T101010-deadbeef"},
		{ref: "dead", want: "20261201T101010-deadbeef"},
		{ref: "DEADBEEF", want: "20261201T101010-deadbeef"},
		{ref: "1a2b3c", want: "20261130T045200-1a2b3c4d"},
		{ref: "9f8e", want: "session_20260312_101500_9f8e7d6c"},
		{ref: "1a2b", wantErr: ErrAmbiguous, errHas: []string{"20261130T045200-1a2b3c4d", "20261130T045300-1a2bffff"}},
		{ref: "20261130", wantErr: ErrAmbiguous, errHas: []string{"2 sessions"}},
		{ref: "cafe", wantErr: ErrNotFound, errHas: []string{`"cafe"`, "albert-code sessions list"}},
		{ref: "../etc", errHas: []string{"invalid session id"}},
		{ref: "", errHas: []string{"empty session id"}},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			t.Parallel()
			got, err := s.Resolve(tt.ref)
			if tt.errHas == nil {
				if err != nil || got != tt.want {
					t.Errorf("Resolve(%q) = %q, %v; want %q", tt.ref, got, err, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("Resolve(%q) = %q, want an error", tt.ref, got)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("Resolve(%q) error %v is not %v", tt.ref, err, tt.wantErr)
			}
			for _, s := range tt.errHas {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestOpenByPrefix(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{})
	if err := l.Append(user("salut")); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l2, msgs := mustOpen(t, s, shortID(l.ID())[:5])
	if l2.ID() != l.ID() || len(msgs) != 1 {
		t.Errorf("Open by short prefix gave %s with %d messages", l2.ID(), len(msgs))
	}
	mustCreate(t, s, Meta{})
	if _, _, err := s.Open("2026"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("Open(ambiguous) = %v, want ErrAmbiguous", err)
	}
	if _, _, err := s.Open("ffffffffffff"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open(unknown) = %v, want ErrNotFound", err)
	}
}

func TestLatest(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	if _, err := s.Latest("/a"); !errors.Is(err, ErrNoSession) {
		t.Errorf("Latest on an empty store = %v, want ErrNoSession", err)
	}
	older := mustCreate(t, s, Meta{Cwd: "/a"})
	newer := mustCreate(t, s, Meta{Cwd: "/a"})
	other := mustCreate(t, s, Meta{Cwd: "/b"})
	// Created last but a sub-agent: never what "continue" means.
	mustCreate(t, s, Meta{Cwd: "/a", ParentID: newer.ID()})

	check := func(cwd, want string) {
		t.Helper()
		got, err := s.Latest(cwd)
		if err != nil || got != want {
			t.Errorf("Latest(%q) = %q, %v; want %q", cwd, got, err, want)
		}
	}
	check("/a", newer.ID())
	check("/a/", newer.ID())
	check("/b", other.ID())
	// Writing to the older session makes it the latest: updated time, not creation.
	if err := older.Append(user("encore")); err != nil {
		t.Fatal(err)
	}
	check("/a", older.ID())
	_, err := s.Latest("/c")
	if !errors.Is(err, ErrNoSession) || !strings.Contains(err.Error(), "/c") {
		t.Errorf("Latest(/c) = %v, want ErrNoSession naming /c", err)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	a := mustCreate(t, s, Meta{Cwd: "/a"})
	b := mustCreate(t, s, Meta{Cwd: "/b"})
	c := mustCreate(t, s, Meta{Cwd: "/a"})
	sub := mustCreate(t, s, Meta{Cwd: "/a", ParentID: a.ID()})
	if err := a.Append(user("latest activity")); err != nil {
		t.Fatal(err)
	}
	// Two broken folders: unreadable meta and missing meta.
	for _, name := range []string{"20261130T000000-badjson0", "20261130T000000-nometa00"} {
		if err := os.Mkdir(filepath.Join(s.Dir(), name), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(s.Dir(), "20261130T000000-badjson0", metaFile), []byte("{not json"), 0o600)
	// Not sessions: a stray file and a hidden folder.
	os.WriteFile(filepath.Join(s.Dir(), "notes.txt"), nil, 0o600)
	os.Mkdir(filepath.Join(s.Dir(), ".deleted-x"), 0o700)

	ids := func(ms []Meta) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.ID)
		}
		return out
	}
	tests := []struct {
		name   string
		filter Filter
		want   []string
	}{
		{"all top-level, most recently updated first", Filter{}, []string{a.ID(), c.ID(), b.ID()}},
		{"by cwd", Filter{Cwd: "/a"}, []string{a.ID(), c.ID()}},
		{"with sub-agents", Filter{SubAgents: true}, []string{a.ID(), sub.ID(), c.ID(), b.ID()}},
		{"children of a", Filter{ParentID: a.ID()}, []string{sub.ID()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.List(tt.filter)
			if !slices.Equal(ids(got), tt.want) {
				t.Errorf("List(%+v) = %v, want %v", tt.filter, ids(got), tt.want)
			}
			var le *ListError
			if !errors.As(err, &le) || len(le.Broken) != 2 {
				t.Fatalf("List error = %v, want a ListError naming 2 broken folders", err)
			}
			for _, name := range []string{"badjson0", "nometa00"} {
				if !strings.Contains(err.Error(), name) {
					t.Errorf("ListError %q does not name %s", err, name)
				}
			}
		})
	}
}

func TestListEmptyStore(t *testing.T) {
	t.Parallel()
	s := NewStore(filepath.Join(t.TempDir(), "does-not-exist-yet"))
	ms, err := s.List(Filter{})
	if err != nil || len(ms) != 0 {
		t.Errorf("List on a missing folder = %v, %v; want nothing and no error", ms, err)
	}
}

func TestDelete(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	keep := mustCreate(t, s, Meta{})
	gone := mustCreate(t, s, Meta{})
	if err := gone.Append(user("à effacer")); err != nil {
		t.Fatal(err)
	}
	gone.Close()
	if err := s.Delete(gone.ID()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Open(gone.ID()); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open after Delete = %v, want ErrNotFound", err)
	}
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 1 || entries[0].Name() != keep.ID() {
		t.Errorf("store holds %v after Delete, want only %s", entries, keep.ID())
	}
	if err := s.Delete(gone.ID()); !errors.Is(err, ErrNotFound) {
		t.Errorf("second Delete = %v, want ErrNotFound", err)
	}
	if err := s.Delete(shortID(keep.ID())); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete by prefix = %v; Delete takes exact ids only", err)
	}
	if err := s.Delete(".."); err == nil {
		t.Errorf("Delete(..) succeeded")
	}
}

func TestNewerSchemaLeftAlone(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{})
	l.Close()
	path := filepath.Join(l.Dir(), metaFile)
	future := []byte(`{"schema_version": 3, "id": "x", "hologram": true}`)
	os.WriteFile(path, future, 0o600)
	_, _, err := s.Open(l.ID())
	if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "upgrade") {
		t.Errorf("Open of a schema 3 session = %v, want ErrNewerSchema asking to upgrade", err)
	}
	if data, _ := os.ReadFile(path); string(data) != string(future) {
		t.Errorf("a newer meta.json was rewritten")
	}
}

// TestMetaCountFollowsLog: after a crash between the log and meta.json, the log wins.
func TestMetaCountFollowsLog(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{})
	l.Append(user("1"), assistant("2"))
	l.Close()
	f, _ := os.OpenFile(filepath.Join(l.Dir(), messagesFile), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"role":"user","content":"written, then crash before meta"}` + "\n")
	f.Close()
	l2, _ := mustOpen(t, s, l.ID())
	if n := l2.Meta().MessageCount; n != 3 {
		t.Errorf("message_count = %d, want 3 (from the log)", n)
	}
}
