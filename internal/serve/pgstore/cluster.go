package pgstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
)

// tickKeep is how long a fired cron tick's row is kept: longer than any replica's
// clock skew or restart, so that a tick is never fired again. Judgement.
const tickKeep = 24 * time.Hour

// checkSettings registers this replica with the fingerprints of its settings, and
// refuses to if a live replica has another value for one of them. Stopping them all
// is how a shared setting is changed.
func (s *Store) checkSettings(ctx context.Context, settings map[string]string) error {
	names := make([]string, 0, len(settings))
	for n := range settings {
		names = append(names, n)
	}
	sort.Strings(names)
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// One replica at a time, so that two starting together with different
		// values do not both find the cluster empty.
		if _, err := tx.Exec(ctx, `LOCK TABLE replica_settings IN EXCLUSIVE MODE`); err != nil {
			return fmt.Errorf("check cluster settings: %w", err)
		}
		for _, name := range names {
			var other string
			err := tx.QueryRow(ctx, `SELECT s.replica FROM replica_settings s
				JOIN replicas r ON r.id = s.replica AND r.heartbeat_at >= now() - $3::interval
				WHERE s.name = $1 AND s.fingerprint <> $2 AND s.replica <> $4 LIMIT 1`,
				name, fingerprint(name, settings[name]), s.ttl.String(), s.replica).Scan(&other)
			switch {
			case errors.Is(err, pgx.ErrNoRows):
			case err != nil:
				return fmt.Errorf("check cluster settings: %w", err)
			default:
				return &SettingsError{Setting: name, Holder: other}
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO replicas (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`, s.replica); err != nil {
			return fmt.Errorf("register replica %s: %w", s.replica, err)
		}
		for _, name := range names {
			if _, err := tx.Exec(ctx, `INSERT INTO replica_settings (replica, name, fingerprint) VALUES ($1, $2, $3)
				ON CONFLICT (replica, name) DO UPDATE SET fingerprint = EXCLUDED.fingerprint`,
				s.replica, name, fingerprint(name, settings[name])); err != nil {
				return fmt.Errorf("check cluster settings: %w", err)
			}
		}
		return nil
	})
}

// fingerprint hides a secret value while letting two equal values match.
func fingerprint(name, value string) string {
	h := sha256.Sum256([]byte(name + "\x00" + value))
	return hex.EncodeToString(h[:])
}

// ClaimTick claims cron job's tick for this replica: true for exactly one replica per
// (job, tick), which fires it; the others skip it. Old ticks are forgotten on the way.
func (s *Store) ClaimTick(ctx context.Context, job string, tick time.Time) (bool, error) {
	if _, err := s.pool.Exec(ctx, `DELETE FROM cron_ticks WHERE tick < $1`, tick.Add(-tickKeep)); err != nil {
		return false, fmt.Errorf("claim tick %s of cron job %q: %w", tick.Format(time.RFC3339), job, err)
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO cron_ticks (job, tick, replica) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, job, tick, s.replica)
	if err != nil {
		return false, fmt.Errorf("claim tick %s of cron job %q: %w", tick.Format(time.RFC3339), job, err)
	}
	return tag.RowsAffected() == 1, nil
}
