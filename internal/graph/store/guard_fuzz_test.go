package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// FuzzSQLGuard sends any text to the read-only SQL surface, through Query (lexer
// and guarded connection) and straight to the guarded pool (the connection alone):
// nothing panics, and nothing is written, neither the database nor a new file
// next to it (ATTACH and VACUUM INTO create files on a mode=ro connection).
func FuzzSQLGuard(f *testing.F) {
	for _, seed := range []string{
		"SELECT name FROM nodes",
		"ATTACH DATABASE 'evil.db' AS evil",
		"VACUUM INTO 'copy.db'",
		"PRAGMA query_only=0",
		"SELECT 1; DELETE FROM nodes",
		"WITH x AS (SELECT 1) DELETE FROM nodes",
		"SELECT load_extension('x')",
		"CREATE TEMP TABLE t(a)",
		"INSERT INTO nodes(qname) VALUES ('x')",
		"SELECT * FROM pragma_table_info('nodes')",
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c",
		"SELECT zeroblob(1e9)",
		"SELECT printf('%.*c', 100000000, 'x')",
		"select/**/1)--",
		"VALUES(1),(2)",
	} {
		f.Add(seed)
	}
	s, dir := queryFixture(f)
	ro, err := s.readOnlyDB()
	if err != nil {
		f.Fatal(err)
	}
	dbPath := filepath.Join(dir, "graph.db")
	snapshot := func(tb testing.TB) ([]byte, []string) {
		tb.Helper()
		data, err := os.ReadFile(dbPath)
		if err != nil {
			tb.Fatal(err)
		}
		return data, dirEntries(tb, dir)
	}
	wantData, wantNames := snapshot(f)
	f.Fuzz(func(t *testing.T, sqlText string) {
		lim := QueryLimits{MaxRows: 100, MaxBytes: 1 << 20, Timeout: 100 * time.Millisecond}
		_, _ = s.QueryAnswer(context.Background(), sqlText, lim)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		_, _ = ro.ExecContext(ctx, sqlText)
		cancel()
		data, names := snapshot(t)
		if !bytes.Equal(data, wantData) {
			t.Fatalf("%q changed the database file", sqlText)
		}
		if !slices.Equal(names, wantNames) {
			t.Fatalf("%q changed the folder: %v, was %v", sqlText, names, wantNames)
		}
	})
}
