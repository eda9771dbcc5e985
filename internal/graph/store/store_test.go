package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph"
)

func openTest(t *testing.T, opts ...Option) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "graph", "graph.db"), opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func fn(qname, name, file string, line int) graph.Node {
	return graph.Node{QName: qname, Kind: graph.KindFunction, Name: name, File: file, Line: line, Language: "go"}
}

func call(from, to, file string, line int) graph.Edge {
	return graph.Edge{From: from, To: to, Kind: graph.EdgeCalls, Confidence: 1, Resolution: graph.ResolvedTypes,
		File: file, Line: line}
}

func replace(t testing.TB, s *Store, facts []graph.FileFacts, removed ...string) {
	t.Helper()
	if err := s.ReplaceFiles(context.Background(), facts, removed); err != nil {
		t.Fatalf("ReplaceFiles: %v", err)
	}
}

func TestOpenCreatesFolderAndSchema(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()

	v, ok, err := s.Meta(ctx, MetaSchemaVersion)
	if err != nil || !ok || v != strconv.Itoa(SchemaVersion) {
		t.Fatalf("schema_version = %q, %v, %v; want %d", v, ok, err, SchemaVersion)
	}
	var mode string
	if err := s.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
	want := map[string]string{"strings": "table", "edge_rows": "table", "file_rows": "table", "meta": "table",
		"node_rows": "table", "search": "table", "unresolved_rows": "table", "site_rows": "table",
		"resolve_pending": "table", "resolve_names": "table", "resolve_deps": "table", "resolve_shapes": "table",
		"edges": "view", "files": "view", "nodes": "view", "unresolved": "view", "sites": "view"}
	for name, typ := range want {
		var n int
		if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = ? AND type = ?`, name, typ).Scan(&n); err != nil || n != 1 {
			t.Errorf("%s %s: count %d, %v", typ, name, n, err)
		}
	}
	for _, idx := range []string{"edge_rows_src", "edge_rows_dst", "edge_rows_file", "node_rows_file", "node_rows_name",
		"unresolved_rows_file", "site_rows_file", "resolve_deps_key", "resolve_deps_file"} {
		var n int
		if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?`, idx).Scan(&n); err != nil || n != 1 {
			t.Errorf("index %s: count %d, %v", idx, n, err)
		}
	}
	if !strings.Contains(s.Schema(), "CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5") {
		t.Errorf("Schema() does not print the FTS table")
	}

	// Reopening an existing store of this version works and keeps its data.
	replace(t, s, []graph.FileFacts{{Path: "a.go", Hash: "h1", Nodes: []graph.Node{fn("p.A", "A", "a.go", 1)}}})
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	if _, err := s2.Node(ctx, "p.A"); err != nil {
		t.Errorf("after reopen: %v", err)
	}
}

func TestOpenReportsUnusableDatabase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		want    error
	}{
		{"garbage", func(t *testing.T, path string) {
			writeFile(t, path, strings.Repeat("this is not a database\n", 500))
		}, ErrCorrupt},
		{"truncated header", func(t *testing.T, path string) {
			writeFile(t, path, "SQLite format 3\x00garbage")
		}, ErrCorrupt},
		{"another sqlite database", func(t *testing.T, path string) {
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`CREATE TABLE customers(id INTEGER)`); err != nil {
				t.Fatal(err)
			}
		}, ErrSchemaVersion},
		{"older schema version", func(t *testing.T, path string) {
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.db.Exec(`UPDATE meta SET value = '0' WHERE key = 'schema_version'`); err != nil {
				t.Fatal(err)
			}
		}, ErrSchemaVersion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "graph.db")
			tt.prepare(t, path)
			before, _ := os.ReadFile(path)
			for _, open := range []struct {
				name string
				fn   func(string, ...Option) (*Store, error)
			}{{"Open", Open}, {"OpenReadOnly", OpenReadOnly}} {
				s, err := open.fn(path)
				if err == nil {
					s.Close()
					t.Fatalf("%s: no error", open.name)
				}
				if !errors.Is(err, tt.want) {
					t.Errorf("%s: err = %v; want %v", open.name, err, tt.want)
				}
				if !strings.Contains(err.Error(), "albert-code graph index --rebuild") {
					t.Errorf("%s: err = %v; want the rebuild command", open.name, err)
				}
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Errorf("the unusable file was modified")
			}
			// The rebuild path: remove, then open afresh.
			if err := Remove(path); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			if err != nil {
				t.Fatalf("Open after Remove: %v", err)
			}
			s.Close()
		})
	}
}

// The indexer's way in: an older or corrupt database is replaced, a newer
// one or a foreign one is left as it is and reported.
func TestOpenOrRebuild(t *testing.T) {
	t.Parallel()
	setVersion := func(v string) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			replace(t, s, []graph.FileFacts{{Path: "a.go", Hash: "h", Nodes: []graph.Node{fn("p.A", "A", "a.go", 1)}}})
			if _, err := s.db.Exec(`UPDATE meta SET value = ? WHERE key = 'schema_version'`, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		rebuilt string // "" when the file must be reported and kept
	}{
		{"older schema version", setVersion("1"), "it had schema version 1"},
		{"corrupt", func(t *testing.T, path string) {
			writeFile(t, path, strings.Repeat("this is not a database\n", 500))
		}, "it was corrupt"},
		{"newer schema version", setVersion("999"), ""},
		{"another sqlite database", func(t *testing.T, path string) {
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`CREATE TABLE customers(id INTEGER)`); err != nil {
				t.Fatal(err)
			}
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "graph.db")
			tt.prepare(t, path)
			before, _ := os.ReadFile(path)
			s, rebuilt, err := OpenOrRebuild(path)
			if tt.rebuilt == "" {
				if err == nil || !errors.Is(err, ErrSchemaVersion) {
					t.Fatalf("err = %v, want ErrSchemaVersion", err)
				}
				if after, _ := os.ReadFile(path); string(after) != string(before) {
					t.Error("a database OpenOrRebuild must keep was modified")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if !strings.HasPrefix(rebuilt, tt.rebuilt) {
				t.Errorf("rebuilt = %q, want %q…", rebuilt, tt.rebuilt)
			}
			if n, err := s.Stats(context.Background()); err != nil || n.NodeCount != 0 {
				t.Errorf("the new database is not empty: %+v, %v", n, err)
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheckFindsNoDamageInAHealthyStore(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	replace(t, s, []graph.FileFacts{{Path: "a.go", Hash: "h", Nodes: []graph.Node{fn("p.A", "A", "a.go", 1)}}})
	if err := s.Check(context.Background()); err != nil {
		t.Fatalf("Check: %v", err)
	}
}

func TestOpenReadOnlyMissingFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "none", "graph.db")
	_, err := OpenReadOnly(path)
	if !errors.Is(err, ErrNoIndex) || !strings.Contains(err.Error(), "albert-code graph index") {
		t.Fatalf("err = %v; want ErrNoIndex with the index command", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenReadOnly created %s", path)
	}
}

func TestLockedDatabaseReportsAfterBusyTimeout(t *testing.T) {
	t.Parallel()
	holder := openTest(t)
	const timeout = 150 * time.Millisecond
	waiter, err := Open(holder.Path(), WithBusyTimeout(timeout))
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()

	tx, err := holder.db.Begin() // _txlock=immediate: takes the write lock now
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()

	start := time.Now()
	err = waiter.ReplaceFiles(context.Background(), []graph.FileFacts{{Path: "a.go", Hash: "h"}}, nil)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v; want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), "another") {
		t.Errorf("err = %v; want it to say another process holds it", err)
	}
	if d := time.Since(start); d < timeout {
		t.Errorf("gave up after %s, before the busy timeout %s", d, timeout)
	}
	// Readers are not blocked by the writer (WAL).
	if _, err := waiter.Manifest(context.Background()); err != nil {
		t.Errorf("read while locked: %v", err)
	}
}

func TestReadOnlyStoreRefusesWrites(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	replace(t, s, []graph.FileFacts{{Path: "a.go", Hash: "h", Nodes: []graph.Node{fn("p.A", "A", "a.go", 1)}}})
	ro, err := OpenReadOnly(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ctx := context.Background()
	if err := ro.ReplaceFiles(ctx, nil, []string{"a.go"}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("ReplaceFiles: %v; want ErrReadOnly", err)
	}
	if err := ro.SetMeta(ctx, MetaRoot, "/x"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("SetMeta: %v; want ErrReadOnly", err)
	}
	// Every read works through the guarded connection, FTS5 included.
	if _, err := ro.Node(ctx, "p.A"); err != nil {
		t.Errorf("Node: %v", err)
	}
	if hits, err := ro.Search(ctx, "A", 5); err != nil || len(hits) != 1 {
		t.Errorf("Search = %v, %v; want one hit", hits, err)
	}
	if sugg, err := ro.Suggest(ctx, "B", 5); err != nil || len(sugg) != 1 {
		t.Errorf("Suggest = %v, %v; want p.A", sugg, err)
	}
	if st, err := ro.Stats(ctx); err != nil || st.NodeCount != 1 {
		t.Errorf("Stats = %+v, %v", st, err)
	}
	if m, err := ro.Manifest(ctx); err != nil || m["a.go"] != "h" {
		t.Errorf("Manifest = %v, %v", m, err)
	}
}
