// Package pgstore keeps the serve layer's shared state in PostgreSQL, so that many
// replicas of albert-code serve share one set of runs: the run store (runstore.Store),
// the replicas' leases and heartbeats, the leader leases (the Telegram poller), the
// cron ticks already fired and the workspace locks across replicas.
package pgstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/etalab-ia/albert-code/internal/proctrack"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

// URLVar is the setting that selects this store; every error about the URL names it.
const URLVar = "ALBERT_CODE_DATABASE_URL"

// connectTimeout bounds the first connection when the URL sets none; judgement: a
// server on the network answers in well under a second, and a start that hangs on a
// wrong host helps no one.
const connectTimeout = 10 * time.Second

// Lease timings. A replica writes its heartbeat every DefaultHeartbeat; one silent
// for DefaultLeaseTTL is dead and its unfinished runs are failed. Judgement: three
// missed beats tolerate a database restart of a few seconds without failing runs.
const (
	DefaultHeartbeat = 2 * time.Second
	DefaultLeaseTTL  = 10 * time.Second
)

// Options configure Open.
type Options struct {
	// Retention is how long a finished run is kept; 0 means runstore.DefaultRetention.
	Retention time.Duration
	// Now is the clock of the runs' times; nil means time.Now. Leases use the
	// database's clock, so that replicas with skewed clocks agree.
	Now func() time.Time
	// Replica names this process in the cluster; empty means host-pid-time.
	Replica string
	// Settings are the values every replica must share (the API token, the adapter),
	// by setting name; Open compares their fingerprints with the live replicas'.
	Settings map[string]string
	// Heartbeat and LeaseTTL: 0 means the defaults.
	Heartbeat, LeaseTTL time.Duration
	// MaxConns bounds the pool of the store's queries; 0 means DefaultMaxConns.
	MaxConns int32
	// MaxLocks bounds the connections that hold workspace locks, one per workspace
	// running or waiting on this replica; 0 means DefaultMaxLocks.
	MaxLocks int32
}

// Pool sizes. Judgement: a run's writes are short, 16 connections serve a replica's
// bursts; the locks are held for whole runs, so they have a pool of their own that a
// busy replica cannot drain from under the runs' writes (which would deadlock). The
// server's max_connections (100 by default) must cover replicas × (16 + busy workspaces).
const (
	DefaultMaxConns = 16
	DefaultMaxLocks = 64
)

// Store is the PostgreSQL run store of one replica.
type Store struct {
	pool      *pgxpool.Pool
	locks     *pgxpool.Pool // connections holding workspace locks
	retention time.Duration
	now       func() time.Time
	replica   string
	boot      string
	heartbeat time.Duration
	ttl       time.Duration
	leftovers []runstore.RunGroup
}

var _ runstore.Store = (*Store)(nil)

// Open connects to the database at rawURL, brings its schema to this version,
// registers this replica and checks its settings against the live replicas'.
func Open(ctx context.Context, rawURL string, opts Options) (*Store, error) {
	masked := Mask(rawURL)
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%s=%s: not a PostgreSQL URL (want postgres://user:password@host:5432/database): %s", URLVar, masked, redact(err, rawURL))
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	lockCfg := cfg.Copy()
	cfg.MaxConns, lockCfg.MaxConns = cmp.Or(opts.MaxConns, DefaultMaxConns), cmp.Or(opts.MaxLocks, DefaultMaxLocks)
	lockCfg.MinConns = 0
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s=%s: %s", URLVar, masked, redact(err, rawURL))
	}
	locks, err := pgxpool.NewWithConfig(ctx, lockCfg)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("%s=%s: %s", URLVar, masked, redact(err, rawURL))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		locks.Close()
		return nil, fmt.Errorf("%s=%s: cannot connect: %s: check the host, port, user, password and database, and that the server is up", URLVar, masked, redact(err, rawURL))
	}
	s := &Store{pool: pool, locks: locks, retention: opts.Retention, now: opts.Now, replica: opts.Replica,
		heartbeat: opts.Heartbeat, ttl: opts.LeaseTTL}
	s.boot, _ = proctrack.BootID()
	if s.retention <= 0 {
		s.retention = runstore.DefaultRetention
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.replica == "" {
		host, _ := os.Hostname()
		s.replica = fmt.Sprintf("%s-%d-%d", host, os.Getpid(), time.Now().UnixNano()%1e6)
	}
	if s.heartbeat <= 0 {
		s.heartbeat = DefaultHeartbeat
	}
	if s.ttl <= 0 {
		s.ttl = DefaultLeaseTTL
	}
	if err := migrate(ctx, pool); err != nil {
		s.closePools()
		return nil, fmt.Errorf("%s=%s: %w", URLVar, masked, err)
	}
	if err := s.checkSettings(ctx, opts.Settings); err != nil {
		s.closePools()
		return nil, err
	}
	if err := s.register(ctx); err != nil {
		s.closePools()
		return nil, fmt.Errorf("%s=%s: %w", URLVar, masked, err)
	}
	return s, nil
}

// Replica is this replica's name in the cluster.
func (s *Store) Replica() string { return s.replica }

// Close leaves the cluster (this replica's unfinished runs are failed at once rather
// than at its lease's end) and closes the pool.
func (s *Store) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.leave(ctx)
	s.closePools()
	return err
}

func (s *Store) closePools() {
	s.locks.Close()
	s.pool.Close()
}

// Mask hides the password of a database URL, for messages and logs.
func Mask(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		if i := strings.LastIndex(raw, "@"); i > 0 {
			if j := strings.Index(raw, "://"); j >= 0 && j+3 < i {
				return raw[:j+3] + "xxxxx" + raw[i:]
			}
		}
		return raw
	}
	return u.Redacted()
}

// redact removes the password from a driver error, which may quote the URL.
func redact(err error, raw string) string {
	msg := err.Error()
	if u, e := url.Parse(raw); e == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			msg = strings.ReplaceAll(msg, pw, "xxxxx")
		}
	}
	return msg
}

// ErrSettingsDiffer is matched by errors.Is on a *SettingsError.
var ErrSettingsDiffer = errors.New("replica settings differ from the cluster's")

// SettingsError names a setting this replica was started with that differs from the
// live replicas'.
type SettingsError struct {
	Setting string
	Holder  string // a live replica that has the cluster's value
}

func (e *SettingsError) Error() string {
	return fmt.Sprintf("%s differs from the one the running replicas share (replica %s): start every replica with the same %s, or stop them all before changing it",
		e.Setting, e.Holder, e.Setting)
}

func (e *SettingsError) Is(target error) bool { return target == ErrSettingsDiffer }
