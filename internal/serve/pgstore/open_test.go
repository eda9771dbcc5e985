package pgstore

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestOpenRefusesBadURLsNamingTheSettingWithoutThePassword(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	cases := map[string]string{
		"not a URL":      "postgres://bob:s3cret@[::1:5432/db",
		"nobody listens": "postgres://bob:s3cret@" + closed + "/db?sslmode=disable&connect_timeout=5",
		"wrong database": strings.Replace(strings.Replace(server.URL, "albert@", "albert:s3cret@", 1), "/postgres?", "/nosuchdb?", 1),
	}
	for name, url := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Open(testCtx(t), url, Options{})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, URLVar) || strings.Contains(msg, "s3cret") {
				t.Fatalf("error %q: want the setting named and the password masked", msg)
			}
		})
	}
}

func TestOpenRefusesANewerSchema(t *testing.T) {
	url := server.NewDatabase(t)
	s := openPG(t, url, "r1", Options{})
	if _, err := s.pool.Exec(testCtx(t), `INSERT INTO albert_schema (version) VALUES ($1)`, SchemaVersion+1); err != nil {
		t.Fatal(err)
	}
	_, err := Open(testCtx(t), url, Options{Replica: "r2"})
	if err == nil || !strings.Contains(err.Error(), "newer than this albert-code") || !strings.Contains(err.Error(), URLVar) {
		t.Fatalf("open a newer schema: %v", err)
	}
}

func TestMigrationRunsOnceWhenReplicasStartTogether(t *testing.T) {
	url := server.NewDatabase(t)
	errs := make(chan error, 3)
	for _, name := range []string{"a", "b", "c"} {
		go func() {
			s, err := Open(testCtx(t), url, Options{Replica: name})
			if err == nil {
				t.Cleanup(func() { s.Close() })
			}
			errs <- err
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent start: %v", err)
		}
	}
	conn, err := pgx.Connect(testCtx(t), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(testCtx(t), `SELECT count(*) FROM albert_schema`).Scan(&n); err != nil || n != SchemaVersion {
		t.Fatalf("schema versions recorded: %d, %v; want %d", n, err, SchemaVersion)
	}
}

func TestAReplicaWithAnotherTokenIsRefusedNamingTheSetting(t *testing.T) {
	url := server.NewDatabase(t)
	settings := map[string]string{"ALBERT_CODE_API_MODE_TOKEN": "tok-1", "ALBERT_CODE_ADAPTER": "claude"}
	openPG(t, url, "r1", Options{Settings: settings})
	openPG(t, url, "r2", Options{Settings: settings})
	_, err := Open(testCtx(t), url, Options{Replica: "r3", Settings: map[string]string{"ALBERT_CODE_API_MODE_TOKEN": "tok-2", "ALBERT_CODE_ADAPTER": "claude"}})
	var se *SettingsError
	if !errors.As(err, &se) || se.Setting != "ALBERT_CODE_API_MODE_TOKEN" || strings.Contains(err.Error(), "tok-") {
		t.Fatalf("open with another token: %v; want a SettingsError naming the token's setting, never its value", err)
	}
	_, err = Open(testCtx(t), url, Options{Replica: "r4", Settings: map[string]string{"ALBERT_CODE_API_MODE_TOKEN": "tok-1", "ALBERT_CODE_ADAPTER": "codex"}})
	if !errors.As(err, &se) || se.Setting != "ALBERT_CODE_ADAPTER" {
		t.Fatalf("open with another adapter: %v; want a SettingsError naming the adapter", err)
	}
}

func TestSettingsMayChangeOnceNoReplicaIsAlive(t *testing.T) {
	url := server.NewDatabase(t)
	s, err := Open(testCtx(t), url, Options{Replica: "r1", Settings: map[string]string{"ALBERT_CODE_ADAPTER": "claude"}})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	openPG(t, url, "r2", Options{Settings: map[string]string{"ALBERT_CODE_ADAPTER": "codex"}})
}

func TestADeadReplicaDoesNotHoldTheSettings(t *testing.T) {
	url := server.NewDatabase(t)
	openPG(t, url, "old", Options{Settings: map[string]string{"ALBERT_CODE_ADAPTER": "claude"}, LeaseTTL: time.Second})
	// "old" never beats: one second later it no longer vouches for its value.
	time.Sleep(1500 * time.Millisecond)
	openPG(t, url, "new", Options{Settings: map[string]string{"ALBERT_CODE_ADAPTER": "codex"}, LeaseTTL: time.Second})
}
