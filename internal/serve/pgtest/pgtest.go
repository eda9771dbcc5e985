// Package pgtest starts a throw-away PostgreSQL server for tests: initdb into a
// temporary folder, pg_ctl on a free port of 127.0.0.1, stopped and removed when the
// test ends. PostgreSQL refuses to run as root, so under root the server runs as
// nobody (runuser), in a folder handed to nobody.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// binDirs are where Debian's postgresql packages put the server programs, newest
// first; PG_BINDIR overrides them.
var binDirs = []string{"/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"}

// startWait bounds the server's start; judgement: initdb and a first start take
// about two seconds on a loaded two-core machine.
const startWait = 60 * time.Second

// Server is a running PostgreSQL. URL connects to its "postgres" database as the
// superuser "albert" with no password (trust on 127.0.0.1 only).
type Server struct {
	URL  string
	Port int
	dir  string
	bin  string
	as   []string // the runuser prefix under root, else empty
}

// Start starts a server for t and registers its stop and removal. It fails the test
// when PostgreSQL is not installed, naming the package to install.
func Start(t testing.TB) *Server {
	t.Helper()
	// Not t.TempDir: its parents are 0700, closed to the server's user under root.
	s, err := start(os.TempDir())
	if err != nil {
		t.Fatalf("start PostgreSQL: %v", err)
	}
	t.Cleanup(s.stop)
	return s
}

// StartDir starts a server in dir for a program that is not a test (a benchmark);
// the caller calls Stop.
func StartDir(dir string) (*Server, error) { return start(dir) }

// Stop stops the server and removes its data.
func (s *Server) Stop() { s.stop() }

func binDir() (string, error) {
	if d := os.Getenv("PG_BINDIR"); d != "" {
		return d, nil
	}
	for _, d := range binDirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server programs (initdb, pg_ctl) in " + strings.Join(binDirs, ", ") +
		": apt-get install postgresql, or set PG_BINDIR")
}

func start(parent string) (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	// A folder of its own under parent, handed to the server's user under root.
	dir, err := os.MkdirTemp(parent, "pg")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		if err := handTo(dir, "nobody"); err != nil {
			return nil, err
		}
		s.as = []string{"runuser", "-u", "nobody", "--"}
	}
	data := filepath.Join(dir, "data")
	if out, err := s.run("initdb", "-D", data, "-U", "albert", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"); err != nil {
		return nil, fmt.Errorf("initdb: %w: %s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s.Port = port
	// fsync off: a test database need not survive a power cut, and the disk is shared.
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", port, dir)
	if out, err := s.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-o", opts, "-w", "-t", strconv.Itoa(int(startWait.Seconds())), "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		return nil, fmt.Errorf("pg_ctl start: %w: %s %s", err, out, log)
	}
	s.URL = fmt.Sprintf("postgres://albert@127.0.0.1:%d/postgres?sslmode=disable", port)
	return s, nil
}

// Restart stops and starts the server on the same port, as a database restart.
func (s *Server) Restart() error {
	data := filepath.Join(s.dir, "data")
	if out, err := s.run("pg_ctl", "-D", data, "-m", "fast", "-w", "restart"); err != nil {
		return fmt.Errorf("pg_ctl restart: %w: %s", err, out)
	}
	return nil
}

func (s *Server) stop() {
	if s.Port != 0 {
		_, _ = s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "-t", "30", "stop")
	}
	_ = os.RemoveAll(s.dir)
}

func (s *Server) run(prog string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), startWait)
	defer cancel()
	argv := append(append(append([]string{}, s.as...), filepath.Join(s.bin, prog)), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = s.dir
	return cmd.CombinedOutput()
}

func handTo(dir, name string) error {
	u, err := user.Lookup(name)
	if err != nil {
		return fmt.Errorf("run PostgreSQL as %s (it refuses root): %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(dir, uid, gid)
}

// freePort asks the kernel for a port, then frees it for the server: a race with
// another program is possible and then pg_ctl fails, naming the port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// NewDatabase creates an empty database of its own for one test and returns its URL:
// tests share a server and never see each other's tables.
func (s *Server) NewDatabase(t testing.TB) string {
	t.Helper()
	url, err := s.CreateDatabase(fmt.Sprintf("t%d", dbSeq.Add(1)))
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// CreateDatabase creates the database name and returns its URL.
func (s *Server) CreateDatabase(name string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		return "", fmt.Errorf("connect to the test server: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	return strings.Replace(s.URL, "/postgres?", "/"+name+"?", 1), nil
}

var dbSeq atomic.Int64
