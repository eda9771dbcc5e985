package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// schemaV3 is the part of version 3's schema that makes it a real older index:
// the graph in tables named as version 4's views.
const schemaV3 = `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO meta VALUES('schema_version', '3');
CREATE TABLE nodes (qname TEXT PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, file TEXT NOT NULL,
  line INTEGER NOT NULL, col INTEGER NOT NULL DEFAULT 0, end_line INTEGER NOT NULL DEFAULT 0,
  signature TEXT NOT NULL DEFAULT '', doc TEXT NOT NULL DEFAULT '', language TEXT NOT NULL DEFAULT '',
  exported INTEGER NOT NULL DEFAULT 0);
INSERT INTO nodes(qname, kind, name, file, line) VALUES('p.Old', 'function', 'Old', 'old.go', 1);
CREATE TABLE edges (src TEXT NOT NULL, dst TEXT NOT NULL, kind TEXT NOT NULL, confidence REAL NOT NULL,
  resolution TEXT NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL DEFAULT 0, derived INTEGER NOT NULL DEFAULT 0);
INSERT INTO edges VALUES('p.Old', 'p.Gone', 'calls', 1.0, 'types', 'old.go', 2, 0);`

// An index written by the version before the strings table is reported with
// the rebuild command by Open and OpenReadOnly, and replaced by OpenOrRebuild
// with the reason: never read as if it were of this version.
func TestVersion3IndexIsRebuiltNotRead(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "graph.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(schemaV3); err != nil {
		t.Fatal(err)
	}
	db.Close()

	for name, open := range map[string]func(string, ...Option) (*Store, error){"Open": Open, "OpenReadOnly": OpenReadOnly} {
		_, err := open(path)
		if !errors.Is(err, ErrSchemaVersion) || !strings.Contains(err.Error(), "schema version 3") ||
			!strings.Contains(err.Error(), "graph index --rebuild") {
			t.Errorf("%s: err = %v; want ErrSchemaVersion naming version 3 and the rebuild command", name, err)
		}
	}

	s, rebuilt, err := OpenOrRebuild(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if want := "it had schema version 3, this albert-code writes version 4"; rebuilt != want {
		t.Errorf("rebuilt = %q; want %q", rebuilt, want)
	}
	ctx := context.Background()
	if _, err := s.Node(ctx, "p.Old"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Node(p.Old) after the rebuild: %v; want ErrNotFound", err)
	}
	replace(t, s, twoFiles())
	if got := qnames(t, s); strings.Join(got, " ") != "p.A p.B p.C" {
		t.Errorf("nodes after the rebuild and a write: %v", got)
	}
}

// Each qualified name, path and kind is stored once, in strings; the id-coded
// rows read back through the views as the text that was written.
func TestStringsAreStoredOnce(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	replace(t, s, twoFiles())
	// p.A: a node's name, the source of two edges and of a site, the target of one.
	for _, text := range []string{"p.A", "a.go", "calls", "types", "go"} {
		if n := count(t, s, `SELECT count(*) FROM strings WHERE text = ?`, text); n != 1 {
			t.Errorf("%q is stored %d times in strings; want once", text, n)
		}
	}
	if n := count(t, s, `SELECT count(*) FROM edge_rows e JOIN strings a ON a.id = e.src WHERE a.text = 'p.A'`); n != 2 {
		t.Errorf("edge_rows from p.A: %d; want 2", n)
	}
	edges, err := s.Edges(context.Background(), "p.A", graph.EdgeCalls, In)
	if err != nil || len(edges) != 1 || edges[0] != call("p.C", "p.A", "other.go", 3) {
		t.Errorf("callers of p.A through the view: %+v, %v", edges, err)
	}
	// A node keeps its id (its qualified name's) when its file is written again:
	// its search row follows it.
	before := count(t, s, `SELECT rowid FROM nodes WHERE qname = 'p.C'`)
	replace(t, s, twoFiles()[1:])
	if after := count(t, s, `SELECT rowid FROM nodes WHERE qname = 'p.C'`); after != before {
		t.Errorf("p.C's id moved from %d to %d on a rewrite", before, after)
	}
	// The full-text index keeps no copy of the text it indexes.
	if n := count(t, s, `SELECT count(*) FROM search WHERE name IS NOT NULL OR doc IS NOT NULL`); n != 0 {
		t.Errorf("%d search rows hold their text; want none (contentless)", n)
	}
	hits, err := s.Search(context.Background(), "C", 5)
	if err != nil || len(hits) == 0 || hits[0].QName != "p.C" {
		t.Errorf("search after a rewrite: %+v, %v", hits, err)
	}
}

// The edges of a large graph cost a few tens of bytes each on disk, indexes
// included: version 3 spent 330 bytes an edge on golang.org/x/tools, most of it
// the qualified names written again in the row and in two indexes.
func TestEdgesCostFewBytesEach(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	facts := benchFacts(200, 20, 40)
	if err := s.ReplaceFiles(context.Background(), facts, nil); err != nil {
		t.Fatal(err)
	}
	var bytes int
	if err := s.db.QueryRow(`SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'edge_rows%'`).Scan(&bytes); err != nil {
		t.Fatal(err)
	}
	// 200 files × 40 edges. Judgement: 100 bytes, room above the 72 measured (a
	// row of about 20 bytes, three index entries of about 12, the slack of pages
	// filled in random order); version 3's rows alone held the 35-byte names twice.
	const edges, maxPerEdge = 200 * 40, 100
	if per := bytes / edges; per > maxPerEdge {
		t.Errorf("edges cost %d bytes each on disk (%d bytes for %d); want at most %d", per, bytes, edges, maxPerEdge)
	}
}

// documentedQueries returns the SQL statements of docs/graph-schema.md's sql
// blocks, one per statement.
func documentedQueries(t *testing.T) []string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "graph-schema.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, block := range strings.Split(string(doc), "```sql\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		for _, stmt := range strings.Split(block, ";") {
			if strings.TrimSpace(stmt) != "" {
				out = append(out, strings.TrimSpace(stmt))
			}
		}
	}
	return out
}

// The queries the schema's page gives as examples run, as written, on the
// guarded connection users' SQL runs on: the views keep version 3's names and
// columns (nodes.rowid joined to search.rowid included).
func TestDocumentedQueriesRun(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	facts := twoFiles()
	facts[0].Nodes = append(facts[0].Nodes, fn("p.ParseConfig", "ParseConfig", "a.go", 20))
	replace(t, s, facts)
	queries := documentedQueries(t)
	if len(queries) < 6 {
		t.Fatalf("found %d queries in docs/graph-schema.md; the page has at least 6", len(queries))
	}
	for _, q := range queries {
		a, err := s.QueryAnswer(context.Background(), q, QueryLimits{})
		if err != nil {
			t.Errorf("%s\n: %v", q, err)
			continue
		}
		if strings.Contains(q, "MATCH 'parse config'") && (len(a.Rows) == 0 || a.Rows[0][0] != "p.ParseConfig") {
			t.Errorf("the documented search found %v; want p.ParseConfig first", a.Rows)
		}
	}
}
