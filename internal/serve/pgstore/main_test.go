package pgstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/pgtest"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

// server is the one PostgreSQL of this package's tests; each test takes a database.
var server *pgtest.Server

func TestMain(m *testing.M) {
	s, err := pgtest.StartDir(os.TempDir())
	if err != nil {
		fmt.Fprintln(os.Stderr, "start PostgreSQL:", err)
		os.Exit(1)
	}
	server = s
	code := m.Run()
	s.Stop()
	os.Exit(code)
}

// testCtx bounds a test's database calls.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// openPG opens a replica named name on url, closed at the test's end.
func openPG(t *testing.T, url, name string, opts Options) *Store {
	t.Helper()
	opts.Replica = name
	s, err := Open(testCtx(t), url, opts)
	if err != nil {
		t.Fatalf("open replica %s: %v", name, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// backend opens a fresh store of one kind.
type backend struct {
	name string
	open func(t *testing.T, opts runstore.Options) runstore.Store
}

// backends are the run stores the behavioural tests hold to the same contract.
var backends = []backend{
	{"sqlite", func(t *testing.T, opts runstore.Options) runstore.Store {
		s, err := runstore.OpenSQLite(filepath.Join(t.TempDir(), "runs.db"), opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}},
	{"postgres", func(t *testing.T, opts runstore.Options) runstore.Store {
		return openPG(t, server.NewDatabase(t), "r1", Options{Retention: opts.Retention, Now: opts.Now})
	}},
}
