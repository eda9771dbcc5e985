package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrRefused: Query refused a statement that is not a single read. The message
// names what was refused.
var ErrRefused = errors.New("refused")

// The read-only connection is guarded three times, each enforced by SQLite:
//   - the file is opened with mode=ro: every write to it fails;
//   - PRAGMA query_only=1;
//   - an authorizer, installed on every connection of roDriver, allows only
//     SELECT, READ, RECURSIVE and the functions of safeFunctions. The first two
//     are not enough: on a mode=ro, query_only connection ATTACH creates files,
//     VACUUM INTO too, and PRAGMA query_only=0 succeeds (measured, see
//     notes/library-probes.md). SQLite presents VACUUM INTO as an ATTACH.
//
// roDriver is a private driver so the authorizer reaches only these connections.
var roDriver = func() *sqlite.Driver {
	d := &sqlite.Driver{}
	d.RegisterConnectionHook(func(c sqlite.ExecQuerierContext, _ string) error {
		ar, ok := c.(sqlite.AuthorizerRegisterer)
		if !ok {
			return errors.New("sqlite driver has no authorizer: refusing a read-only connection without one")
		}
		return ar.RegisterAuthorizer((&guard{}).authorize)
	})
	return d
}()

type roConnector struct{ dsn string }

func (c roConnector) Connect(context.Context) (driver.Conn, error) { return roDriver.Open(c.dsn) }
func (c roConnector) Driver() driver.Driver                        { return roDriver }

// readOnlyDB returns the guarded pool, opening it on first use.
func (s *Store) readOnlyDB() (*sql.DB, error) {
	s.roMu.Lock()
	defer s.roMu.Unlock()
	if s.ro != nil {
		return s.ro, nil
	}
	db := sql.OpenDB(roConnector{s.dsn("ro", "_query_only=1")})
	if err := db.Ping(); err != nil {
		db.Close()
		if sqliteCode(err) == sqlite3.SQLITE_CANTOPEN {
			return nil, fmt.Errorf("open graph store read-only: %w at %s: run `albert-code graph index` first: %w", ErrNoIndex, s.path, err)
		}
		return nil, s.wrap("open graph store read-only", err)
	}
	s.ro = db
	return db, nil
}

// safeFunctions are the SQL functions a read-only query may call: SQLite's core
// scalar, aggregate, window, date, math and JSON functions, and FTS5's. Left out:
// load_extension, the ones that allocate blobs on demand (zeroblob, randomblob), and
// those about the connection rather than the data (changes, last_insert_rowid,
// sqlite_compileoption_*, sqlite_offset).
var safeFunctions = toSet(`abs char coalesce concat concat_ws format glob hex if ifnull iif instr length
	octet_length like likelihood likely lower ltrim max min nullif printf quote random replace round rtrim
	sign soundex sqlite_version substr substring trim typeof unhex unicode unlikely upper
	avg count group_concat string_agg sum total
	row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
	date time datetime julianday unixepoch strftime timediff
	acos asin atan atan2 ceil ceiling cos degrees exp floor ln log log10 log2 mod pi pow power radians sin
	sqrt tan trunc
	json json_array json_array_length json_each json_error_position json_extract json_group_array
	json_group_object json_object json_pretty json_quote json_tree json_type json_valid -> ->>
	bm25 highlight snippet match`)

func toSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// guard is one connection's authorizer. refused records the first action it
// denied, so Query can say what it refused instead of SQLite's "not authorized".
type guard struct {
	mu      sync.Mutex
	refused string
}

func (g *guard) authorize(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive:
		return sqlite.AuthorizerOK
	case sqlite.AuthFunction:
		if safeFunctions[strings.ToLower(arg2)] {
			return sqlite.AuthorizerOK
		}
	case sqlite.AuthPragma:
		// FTS5 reads PRAGMA data_version on every MATCH; reading it changes nothing.
		if strings.EqualFold(arg1, "data_version") && arg2 == "" {
			return sqlite.AuthorizerOK
		}
	}
	g.mu.Lock()
	if g.refused == "" {
		g.refused = describeAction(action, arg1, arg2)
	}
	g.mu.Unlock()
	return sqlite.AuthorizerDeny
}

func (g *guard) takeRefused() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.refused
	g.refused = ""
	return r
}

func describeAction(action sqlite.AuthorizerActionCode, arg1, arg2 string) string {
	switch action {
	case sqlite.AuthAttach:
		return "ATTACH (or VACUUM INTO) " + quoteArg(arg1)
	case sqlite.AuthDetach:
		return "DETACH " + quoteArg(arg1)
	case sqlite.AuthPragma:
		if arg2 != "" {
			return "PRAGMA " + arg1 + " = " + arg2
		}
		return "PRAGMA " + arg1
	case sqlite.AuthFunction:
		return "function " + arg2 + "()"
	case sqlite.AuthInsert:
		return "INSERT into " + arg1
	case sqlite.AuthUpdate:
		return "UPDATE of " + arg1 + "." + arg2
	case sqlite.AuthDelete:
		return "DELETE from " + arg1
	case sqlite.AuthTransaction:
		return "transaction " + arg1
	case sqlite.AuthSavepoint:
		return "SAVEPOINT " + arg2
	case sqlite.AuthAlterTable:
		return "ALTER TABLE " + arg2
	case sqlite.AuthReindex, sqlite.AuthAnalyze:
		return "REINDEX/ANALYZE " + arg1
	}
	if name, ok := ddlActions[action]; ok {
		return name + " " + arg1
	}
	return fmt.Sprintf("action %d %s %s", action, arg1, arg2)
}

var ddlActions = map[sqlite.AuthorizerActionCode]string{
	sqlite.AuthCreateIndex: "CREATE INDEX", sqlite.AuthCreateTable: "CREATE TABLE",
	sqlite.AuthCreateTempIndex: "CREATE TEMP INDEX", sqlite.AuthCreateTempTable: "CREATE TEMP TABLE",
	sqlite.AuthCreateTempTrigger: "CREATE TEMP TRIGGER", sqlite.AuthCreateTempView: "CREATE TEMP VIEW",
	sqlite.AuthCreateTrigger: "CREATE TRIGGER", sqlite.AuthCreateView: "CREATE VIEW",
	sqlite.AuthCreateVTable: "CREATE VIRTUAL TABLE", sqlite.AuthDropIndex: "DROP INDEX",
	sqlite.AuthDropTable: "DROP TABLE", sqlite.AuthDropTempIndex: "DROP TEMP INDEX",
	sqlite.AuthDropTempTable: "DROP TEMP TABLE", sqlite.AuthDropTempTrigger: "DROP TEMP TRIGGER",
	sqlite.AuthDropTempView: "DROP TEMP VIEW", sqlite.AuthDropTrigger: "DROP TRIGGER",
	sqlite.AuthDropView: "DROP VIEW", sqlite.AuthDropVTable: "DROP VIRTUAL TABLE",
}

func quoteArg(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("%q", s)
}
