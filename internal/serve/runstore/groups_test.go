package runstore

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/proctrack"
)

// groupRows lists the groups recorded in s, whatever their boot.
func groupRows(t *testing.T, s *SQLite) []RunGroup {
	t.Helper()
	rows, err := s.db.Query(`SELECT run_id, pgid, start FROM process_groups ORDER BY run_id, pgid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []RunGroup
	for rows.Next() {
		var g RunGroup
		var start int64
		if err := rows.Scan(&g.RunID, &g.Group.PGID, &start); err != nil {
			t.Fatal(err)
		}
		g.Group.Start = uint64(start)
		out = append(out, g)
	}
	return out
}

func TestGroupsStillRecordedAtOpenAreLeftovers(t *testing.T) {
	t.Parallel()
	if _, err := proctrack.BootID(); err != nil {
		t.Fatalf("this test needs the boot id: %v", err)
	}
	c := newClock()
	path := filepath.Join(t.TempDir(), "runs.db")
	s, err := OpenSQLite(path, Options{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if len(s.Leftovers()) != 0 {
		t.Errorf("a new store has leftovers: %v", s.Leftovers())
	}
	_ = s.Create(ctx, Run{ID: "r1", Status: Running})
	_ = s.Create(ctx, Run{ID: "r2", Status: Running})
	ended := proctrack.Group{PGID: 200, Start: 6}
	for _, rg := range []RunGroup{{"r1", proctrack.Group{PGID: 100, Start: 5}}, {"r1", ended}, {"r2", proctrack.Group{PGID: 300, Start: 7}}} {
		if err := s.AddGroup(ctx, rg.RunID, rg.Group); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddGroup(ctx, "r1", ended); err != nil {
		t.Errorf("recording a group twice: %v", err)
	}
	if err := s.RemoveGroup(ctx, "r1", ended); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveGroup(ctx, "r1", ended); err != nil {
		t.Errorf("forgetting a group twice: %v", err)
	}
	// The server dies with two groups running (Close, like a crash, leaves the rows).
	s.Close()

	s2 := open(t, path, c)
	want := []RunGroup{{"r1", proctrack.Group{PGID: 100, Start: 5}}, {"r2", proctrack.Group{PGID: 300, Start: 7}}}
	if got := s2.Leftovers(); !slices.Equal(got, want) {
		t.Errorf("leftovers %v, want %v", got, want)
	}
	if r, _ := s2.Get(ctx, "r1"); r.Status != Failed || r.Error != InterruptedError {
		t.Errorf("the run whose group was left: %s %q, want failed, interrupted", r.Status, r.Error)
	}
	for _, g := range want {
		if err := s2.RemoveGroup(ctx, g.RunID, g.Group); err != nil {
			t.Fatal(err)
		}
	}
	s2.Close()
	if s3 := open(t, path, c); len(s3.Leftovers()) != 0 {
		t.Errorf("groups the last start killed are leftovers again: %v", s3.Leftovers())
	}
}

func TestGroupsOfAnotherBootAreForgotten(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "runs.db")
	s := open(t, path, newClock())
	ctx := t.Context()
	_ = s.Create(ctx, Run{ID: "r", Status: Running})
	if _, err := s.db.Exec(`INSERT INTO process_groups (run_id, pgid, start, boot) VALUES ('r', 100, 5, 'a boot before the last reboot')`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := open(t, path, newClock())
	if len(s2.Leftovers()) != 0 || len(groupRows(t, s2)) != 0 {
		t.Errorf("a group of another boot: leftovers %v, rows %v; want it forgotten", s2.Leftovers(), groupRows(t, s2))
	}
}

func TestAGroupBelongsToAnExistingRun(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), newClock())
	ctx := t.Context()
	err := s.AddGroup(ctx, "nope", proctrack.Group{PGID: 100, Start: 5})
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("a group of an unknown run: %v, want ErrNotFound", err)
	}
	_ = s.Create(ctx, Run{ID: "r", Status: Running})
	_ = s.AddGroup(ctx, "r", proctrack.Group{PGID: 100, Start: 5})
	if err := s.Delete(ctx, "r"); err != nil {
		t.Fatal(err)
	}
	if rows := groupRows(t, s); len(rows) != 0 {
		t.Errorf("a deleted run's groups stay: %v", rows)
	}
}

func TestSinkRecordsAGroupWhileItRuns(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), newClock())
	_ = s.Create(t.Context(), Run{ID: "r", Status: Running})
	var errs []error
	k := Sink(s, "r", func(err error) { errs = append(errs, err) })
	g := proctrack.Group{PGID: 4242, Start: 99}
	k.Started(g)
	if got, err := s.Groups(t.Context(), "r"); err != nil || !slices.Equal(got, []proctrack.Group{g}) {
		t.Errorf("after Started: %v, %v", got, err)
	}
	k.Ended(g)
	if rows := groupRows(t, s); len(rows) != 0 {
		t.Errorf("after Ended: %v", rows)
	}
	Sink(s, "gone", func(err error) { errs = append(errs, err) }).Started(g)
	if len(errs) != 1 || !errors.Is(errs[0], ErrNotFound) {
		t.Errorf("errors reported: %v, want one ErrNotFound for the unknown run", errs)
	}
}

// TestOpenMigratesAVersion1Store opens a file written by the schema before process
// groups (testdata/runs-v1.sql): its runs are kept, the running one is interrupted,
// and groups can be recorded.
func TestOpenMigratesAVersion1Store(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "runs.db")
	v1, err := os.ReadFile("testdata/runs-v1.sql")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(v1)); err != nil {
		t.Fatal(err)
	}
	db.Close()

	c := newClock()
	s := open(t, path, c)
	ctx := t.Context()
	var version int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version != schemaVersion {
		t.Errorf("version after open: %d, %v; want %d", version, err, schemaVersion)
	}
	if r, err := s.Get(ctx, "done"); err != nil || r.Status != Completed || string(r.Result) != `{"text":"kept"}` {
		t.Errorf("the finished run: %+v, %v", r, err)
	}
	if r, err := s.Get(ctx, "busy"); err != nil || r.Status != Failed || r.Error != InterruptedError {
		t.Errorf("the running run: %+v, %v; want interrupted", r, err)
	}
	if ev, err := s.Events(ctx, "busy", 0, 0); err != nil || len(ev) != 1 {
		t.Errorf("the running run's events: %v, %v", ev, err)
	}
	if s.Interrupted() != 1 || len(s.Leftovers()) != 0 {
		t.Errorf("interrupted %d, leftovers %v; want 1 and none", s.Interrupted(), s.Leftovers())
	}
	_ = s.Create(ctx, Run{ID: "new", Status: Running})
	if err := s.AddGroup(ctx, "new", proctrack.Group{PGID: 100, Start: 5}); err != nil {
		t.Errorf("a group in the migrated store: %v", err)
	}
	s.Close()
	if s2 := open(t, path, c); len(s2.Leftovers()) != 1 {
		t.Errorf("the migrated store reopened: leftovers %v, want the one group", s2.Leftovers())
	}
}
