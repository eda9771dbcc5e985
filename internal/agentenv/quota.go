package agentenv

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/albert"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// startupQuotaTimeout bounds the start-up check. Judgement: a warning is worth a
// short wait, not a slow start when the account endpoints are slow.
const startupQuotaTimeout = 3 * time.Second

// QuotaWarnings are the lines every face shows at start-up, each starting with its
// level ("warning:", "critical:"): rate-limit state files
// found corrupt and rebuilt, a daily quota of the active model recorded as
// exhausted, and the active model at 80 % (warning) or 95 % (critical) of a daily
// quota by today's /v1/me/usage. The account is asked only when a daily limit of
// the model is known, since there is nothing to compare usage with otherwise; a
// failure to ask is logged, not shown: the agent works without it.
func (e *Env) QuotaWarnings(ctx context.Context) []string {
	m, p, err := e.ModelFor()
	if err != nil {
		return nil
	}
	now := time.Now()
	store := ratelimit.NewStore(e.Config.Home)
	q := e.modelQuota(store, now, p, accountOf(p, e.apiKeyOrEmpty(p)), m.WireName)
	var warnings []string
	for _, w := range store.Warnings() {
		warnings = append(warnings, "warning: "+w)
	}
	if q.ExhaustedAt == nil && (q.RPD > 0 || q.TPD > 0) && e.isQuotaProvider(p) {
		ctx, cancel := context.WithTimeout(ctx, startupQuotaTimeout)
		defer cancel()
		r := e.quotaReport(ctx, now, p, store, false)
		for _, e := range r.Errors {
			slog.Warn("quota check", "err", e)
		}
		for _, mq := range r.Models {
			if mq.Model == q.Model {
				q = mq
			}
		}
	}
	if w := q.Warning(); w != "" {
		warnings = append(warnings, w)
	}
	return warnings
}

// QuotaReports reads, for every provider of rate_limits.quota_providers, the
// account's limits and today's usage per model (`albert-code quota`, /quota).
func (e *Env) QuotaReports(ctx context.Context) []albert.Report {
	now := time.Now()
	store := ratelimit.NewStore(e.Config.Home)
	var out []albert.Report
	for _, name := range e.Config.RateLimits.QuotaProviderNames() {
		p, err := e.Config.Provider(name)
		if err != nil {
			out = append(out, albert.Report{Provider: name, Errors: []string{err.Error()}})
			continue
		}
		out = append(out, e.quotaReport(ctx, now, p, store, true))
	}
	return out
}

// QuotaText renders QuotaReports for the /quota slash command.
func (e *Env) QuotaText(ctx context.Context) string {
	var b strings.Builder
	for i, r := range e.QuotaReports(ctx) {
		if i > 0 {
			b.WriteString("\n")
		}
		_ = r.WriteText(&b)
	}
	return b.String()
}

// RPMText renders the active model's rolling window for the /rpm slash command,
// without waiting or booking a call.
func (e *Env) RPMText() (string, error) {
	m, p, err := e.ModelFor()
	if err != nil {
		return "", err
	}
	snap, err := ratelimit.NewStore(e.Config.Home).Snapshot(time.Now(), RateLimitTable(e.Config), accountOf(p, e.apiKeyOrEmpty(p)), m.WireName)
	if err != nil {
		return "", err
	}
	return snap.Text(), nil
}

// quotaReport reads p's usage today, and with withInfo the account and its limits.
func (e *Env) quotaReport(ctx context.Context, now time.Time, p config.Provider, store *ratelimit.Store, withInfo bool) albert.Report {
	r := albert.Report{Provider: p.Name, BaseURL: p.BaseURL}
	key, err := e.Config.APIKey(p.Name)
	if err != nil {
		r.Errors = append(r.Errors, err.Error())
	}
	account := accountOf(p, key)
	table := RateLimitTable(e.Config)
	client := albert.Client{BaseURL: p.BaseURL, APIKey: key, UserAgent: e.userAgent}
	var tally map[string]*albert.ModelQuota
	if err == nil {
		if withInfo {
			if info, err := client.Info(ctx); err != nil {
				r.Errors = append(r.Errors, err.Error())
			} else {
				r.Account = &albert.Account{ID: info.ID, Name: info.Name, Email: info.Email}
				r.Routers = albert.Routers(info.Limits)
			}
		}
		events, err := client.UsageSince(ctx, albert.StartOfDayUTC(now))
		if err != nil {
			r.Errors = append(r.Errors, err.Error())
		}
		tally = albert.Tally(events, albert.StartOfDayUTC(now), table.Canonical)
	}
	seen := map[string]bool{}
	add := func(wire string) {
		q := e.modelQuota(store, now, p, account, wire)
		if seen[q.Model] {
			return
		}
		seen[q.Model] = true
		t := tally[q.Model]
		if t == nil && q.RPD == 0 && q.TPD == 0 && q.ExhaustedAt == nil {
			return // nothing to say about it
		}
		if t != nil {
			q.Requests, q.InputTokens = t.Requests, t.InputTokens
		}
		q.Grade()
		r.Models = append(r.Models, q)
	}
	for _, m := range e.Config.Models {
		if m.Provider == p.Name {
			add(m.WireName)
		}
	}
	for _, model := range sortedKeys(tally) {
		add(model)
	}
	return r
}

// modelQuota is a model's daily limits and exhausted record, without usage.
func (e *Env) modelQuota(store *ratelimit.Store, now time.Time, p config.Provider, account, wire string) albert.ModelQuota {
	q := albert.ModelQuota{Model: wire, ResetAt: ratelimit.NextMidnightUTC(now), LimitSource: "unknown"}
	snap, err := store.Snapshot(now, RateLimitTable(e.Config), account, wire)
	if err != nil {
		slog.Warn("read rate-limit state", "err", err)
		return q
	}
	q.Model, q.RPD, q.TPD, q.LimitSource = snap.Model, int64(snap.Limits.RPD), int64(snap.Limits.TPD), snap.LimitSource
	if ex := snap.Exhausted; ex != nil {
		at := ex.RecordedAt
		q.ExhaustedAt, q.ResetAt = &at, ex.ResetAt()
	}
	q.Grade()
	return q
}

func (e *Env) isQuotaProvider(p config.Provider) bool {
	return slices.Contains(e.Config.RateLimits.QuotaProviderNames(), p.Name)
}

func (e *Env) apiKeyOrEmpty(p config.Provider) string {
	key, _ := e.Config.APIKey(p.Name)
	return key
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
