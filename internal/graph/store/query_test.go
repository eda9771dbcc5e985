package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// queryFixture is a store with 50 nodes in one file, in its own folder so a test
// can assert that no file appeared next to it.
func queryFixture(t testing.TB) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var nodes []graph.Node
	for i := range 50 {
		nodes = append(nodes, fn(fmt.Sprintf("p.F%02d", i), fmt.Sprintf("F%02d", i), "a.go", i+1))
	}
	replace(t, s, []graph.FileFacts{{Path: "a.go", Hash: "h", Nodes: nodes}})
	return s, dir
}

func dirEntries(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestQueryReads(t *testing.T) {
	t.Parallel()
	s, _ := queryFixture(t)
	tests := []struct {
		sql     string
		cols    []string
		rows    [][]any
		maxRows int
	}{
		{"SELECT qname, line FROM nodes WHERE name = 'F03'", []string{"qname", "line"}, [][]any{{"p.F03", int64(4)}}, 0},
		{"select count(*) AS n from nodes;", []string{"n"}, [][]any{{int64(50)}}, 0},
		{"  -- a comment\n/* another */ SELECT name FROM nodes ORDER BY line DESC LIMIT 2 ; -- done",
			[]string{"name"}, [][]any{{"F49"}, {"F48"}}, 0},
		{"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 3) SELECT x FROM c",
			[]string{"x"}, [][]any{{int64(1)}, {int64(2)}, {int64(3)}}, 0},
		{"VALUES (1, 'a;b'), (2, 'c)')", []string{"column1", "column2"}, [][]any{{int64(1), "a;b"}, {int64(2), "c)"}}, 0},
		{"SELECT n.name FROM search JOIN nodes n ON n.rowid = search.rowid WHERE search MATCH 'f07' ORDER BY bm25(search)",
			[]string{"name"}, [][]any{{"F07"}}, 0},
		{`SELECT upper(name) || ';' AS "x;y" FROM nodes WHERE qname = 'p.F00'`, []string{"x;y"}, [][]any{{"F00;"}}, 0},
		{"SELECT json_object('n', name) FROM nodes WHERE line = 1", []string{"json_object('n', name)"},
			[][]any{{`{"n":"F00"}`}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			cols, rows, truncated, err := s.Query(context.Background(), tt.sql, tt.maxRows, 0)
			if err != nil {
				t.Fatal(err)
			}
			if truncated {
				t.Error("truncated")
			}
			if !reflect.DeepEqual(cols, tt.cols) || !reflect.DeepEqual(rows, tt.rows) {
				t.Errorf("got %v %v; want %v %v", cols, rows, tt.cols, tt.rows)
			}
		})
	}
}

func TestQueryRowCap(t *testing.T) {
	t.Parallel()
	s, _ := queryFixture(t)
	tests := []struct {
		name      string
		sql       string
		maxRows   int
		rows      int
		truncated bool
	}{
		// 50^4 = 6.25 million rows: the cap stops it long before the timeout.
		{"cross join", "SELECT a.name, b.name FROM nodes a, nodes b, nodes c, nodes d", 10, 10, true},
		{"literal cannot lift the cap", "SELECT 'LIMIT 1000000' AS s, name FROM nodes", 5, 5, true},
		{"its own limit above the cap", "SELECT name FROM nodes LIMIT 1000000", 7, 7, true},
		{"exactly the cap", "SELECT name FROM nodes", 50, 50, false},
		{"under the cap", "SELECT name FROM nodes WHERE line <= 3", 10, 3, false},
		{"default cap", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c", 0, DefaultMaxRows, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, rows, truncated, err := s.Query(context.Background(), tt.sql, tt.maxRows, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != tt.rows || truncated != tt.truncated {
				t.Errorf("%d rows, truncated %v; want %d, %v", len(rows), truncated, tt.rows, tt.truncated)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %s: the cap did not stop the query early", d)
			}
		})
	}
}

func TestQueryTimeout(t *testing.T) {
	t.Parallel()
	s, _ := queryFixture(t)
	for _, q := range []string{
		// Never yields a row.
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c",
		// Yields one row at once, then runs forever looking for a second.
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c WHERE x = 1 OR x < 0",
	} {
		start := time.Now()
		_, _, _, err := s.Query(context.Background(), q, 10, 200*time.Millisecond)
		if !errors.Is(err, ErrQueryTimeout) {
			t.Errorf("%s: err = %v; want ErrQueryTimeout", q, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: returned after %s; want about the 200ms timeout", q, d)
		}
	}
	// The pool still works after an interrupted query.
	if _, rows, _, err := s.Query(context.Background(), "SELECT 1", 1, 0); err != nil || len(rows) != 1 {
		t.Errorf("after a timeout: %v, %v", rows, err)
	}
}

func TestQueryRefusesHostileSQL(t *testing.T) {
	t.Parallel()
	s, dir := queryFixture(t)
	before := dirEntries(t, dir)
	evil := filepath.Join(dir, "evil.db")
	copyDB := filepath.Join(dir, "copy.db")
	tests := []struct {
		sql  string
		want string // in the error message
	}{
		{"INSERT INTO nodes(qname, kind, name, file, line) VALUES('x', 'function', 'x', 'x', 1)", "INSERT"},
		{"UPDATE nodes SET name = 'x'", "UPDATE"},
		{"DELETE FROM nodes", "DELETE"},
		{"DROP TABLE nodes", "DROP"},
		{"CREATE TABLE x(a)", "CREATE"},
		{"REPLACE INTO meta VALUES('k', 'v')", "REPLACE"},
		{"ALTER TABLE nodes ADD COLUMN x", "ALTER"},
		{"ATTACH DATABASE '" + evil + "' AS evil", "ATTACH"},
		{"VACUUM INTO '" + copyDB + "'", "VACUUM"},
		{"VACUUM", "VACUUM"},
		{"PRAGMA query_only=0", "PRAGMA"},
		{"PRAGMA writable_schema=ON", "PRAGMA"},
		{"BEGIN; DELETE FROM nodes; COMMIT", "one statement"},
		{"SELECT 1; DROP TABLE nodes", "one statement"},
		{"SELECT 1; SELECT 2", "one statement"},
		{"SELECT 1;\n-- trailing\n;DELETE FROM nodes", "one statement"},
		{"SELECT load_extension('/tmp/x.so')", "load_extension"},
		{"SELECT zeroblob(1000000000)", "zeroblob"},
		{"SELECT * FROM pragma_table_info('nodes')", "PRAGMA table_info"},
		{"WITH x AS (SELECT 1) DELETE FROM nodes", "a write to nodes (a view)"},
		{"WITH x AS (SELECT 1) DELETE FROM node_rows", "DELETE from node_rows"},
		{"WITH x AS (SELECT 1) INSERT INTO strings(text) VALUES('x')", "INSERT into strings"},
		{"WITH x AS (SELECT 1) INSERT INTO meta VALUES('k','v')", "INSERT into meta"},
		{"SELECT 1) UNION ALL SELECT (2", "unbalanced"},
		{"SELECT 'unterminated", "unterminated"},
		{"SELECT 1 /* unterminated", "unterminated"},
		{"", "empty"},
		{"EXPLAIN SELECT 1", "EXPLAIN"},
	}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			_, _, _, err := s.Query(context.Background(), tt.sql, 10, time.Second)
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("err = %v; want ErrRefused", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v; want it to name %q", err, tt.want)
			}
		})
	}
	if after := dirEntries(t, dir); slices.Contains(after, "evil.db") || slices.Contains(after, "copy.db") {
		t.Errorf("files after the attacks: %v (before: %v)", after, before)
	}
	if n := count(t, s, `SELECT count(*) FROM nodes`); n != 50 {
		t.Errorf("%d nodes after the attacks; want 50", n)
	}
}

// TestGuardedConnectionEnforcesWithoutTheLexer sends attacks straight to the guarded
// pool, skipping checkStatement: SQLite itself (mode=ro, query_only, authorizer)
// must refuse them, and create no file.
func TestGuardedConnectionEnforcesWithoutTheLexer(t *testing.T) {
	t.Parallel()
	s, dir := queryFixture(t)
	ro, err := s.readOnlyDB()
	if err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(dir, "evil.db")
	copyDB := filepath.Join(dir, "copy.db")
	for _, q := range []string{
		"ATTACH DATABASE '" + evil + "' AS evil",
		"VACUUM INTO '" + copyDB + "'",
		"PRAGMA query_only=0",
		"PRAGMA writable_schema=ON",
		"DELETE FROM nodes",
		"DROP TABLE nodes",
		"CREATE TEMP TABLE t(a)",
		"SELECT load_extension('x')",
	} {
		if _, err := ro.Exec(q); err == nil {
			t.Errorf("%s: accepted by the guarded connection", q)
		}
	}
	for _, f := range []string{evil, copyDB} {
		if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists", f)
		}
	}
	var qo int
	if err := ro.QueryRow("SELECT * FROM pragma_query_only").Scan(&qo); err == nil {
		t.Errorf("pragma_query_only readable through the authorizer (%d)", qo)
	}
	if n := count(t, s, `SELECT count(*) FROM nodes`); n != 50 {
		t.Errorf("%d nodes; want 50", n)
	}
}

func TestCheckStatement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, out string
		ok      bool
	}{
		{"SELECT 1", "SELECT 1", true},
		{"SELECT 1;", "SELECT 1", true},
		{"SELECT ';' FROM t; -- x\n /* y */ ;", "SELECT ';' FROM t", true},
		{`SELECT "a""b", 'it''s', [x;y], ` + "`z;`" + ` FROM t`, `SELECT "a""b", 'it''s', [x;y], ` + "`z;`" + ` FROM t`, true},
		{"with x as (select 1) select * from x", "with x as (select 1) select * from x", true},
		{"/*c*/VALUES(1)", "/*c*/VALUES(1)", true},
		{"SELECT 1 -- comment without newline", "SELECT 1 -- comment without newline", true},
		{"SELECTED 1", "", false},
		{"'SELECT' 1", "", false},
		{"SELECT (1", "", false},
		{"SELECT 1 ; x", "", false},
		{"PRAGMA x", "", false},
	}
	for _, tt := range tests {
		got, err := checkStatement(tt.in)
		if (err == nil) != tt.ok || got != tt.out {
			t.Errorf("checkStatement(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.out, tt.ok)
		}
	}
}
