package albert_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/albert"
	"github.com/etalab-ia/albert-code/internal/fakealbert"
)

func start(t *testing.T) *fakealbert.Server {
	t.Helper()
	s, err := fakealbert.Start(fakealbert.Options{APIKey: "k", User: fakealbert.User{ID: 42, Name: "Ada", Email: "ada@example.fr"},
		Models: []fakealbert.Model{{ID: "m/a", RouterID: 3, Limits: fakealbert.Limits{RPM: 50, TPD: 2460000}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestInfoReadsIdentityAndLimitsPerRouter(t *testing.T) {
	t.Parallel()
	s := start(t)
	info, err := (&albert.Client{BaseURL: s.URL(), APIKey: "k"}).Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.ID != "42" || info.Name != "Ada" || len(info.Limits) != 4 {
		t.Fatalf("info = %+v", info)
	}
	routers := albert.Routers(info.Limits)
	if len(routers) != 1 || routers[0].Router != 3 || *routers[0].RPM != 50 || routers[0].RPD != nil || *routers[0].TPD != 2460000 {
		t.Fatalf("routers = %+v", routers)
	}
}

func TestUsageSincePagesUntilAShortPageAndKeepsToday(t *testing.T) {
	t.Parallel()
	s := start(t)
	// An hour into today (UTC), whatever the clock says: run in the first seconds
	// after midnight, time.Now()-10s would fall on yesterday.
	now := albert.StartOfDayUTC(time.Now()).Add(time.Hour)
	for range 230 {
		s.AddUsage("m/a", now.Unix()-10, 10)
	}
	s.AddUsage("m/a", now.Add(-30*time.Hour).Unix(), 99999) // before today's 00:00 UTC
	events, err := (&albert.Client{BaseURL: s.URL(), APIKey: "k"}).UsageSince(context.Background(), albert.StartOfDayUTC(now))
	if err != nil {
		t.Fatal(err)
	}
	tally := albert.Tally(events, albert.StartOfDayUTC(now), func(s string) string { return s })
	if q := tally["m/a"]; len(events) != 230 || q == nil || q.Requests != 230 || q.InputTokens != 2300 {
		t.Fatalf("%d events, tally %+v; want 230 from three pages", len(events), tally["m/a"])
	}
}

func TestErrorsNameTheEndpointAndTheServerDetail(t *testing.T) {
	t.Parallel()
	s := start(t)
	_, err := (&albert.Client{BaseURL: s.URL(), APIKey: "wrong"}).Info(context.Background())
	if err == nil || !strings.Contains(err.Error(), "/me/info") || !strings.Contains(err.Error(), "HTTP 401: Invalid API key.") {
		t.Fatalf("err = %v", err)
	}
	_, err = (&albert.Client{BaseURL: "http://127.0.0.1:1/v1", APIKey: "k"}).Info(context.Background())
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1/v1/me/info") {
		t.Fatalf("unreachable: err = %v", err)
	}
}

func TestLevelsAt80And95Percent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		used, limit int64
		want        albert.Level
	}{
		{0, 0, albert.LevelUnknown}, {799, 1000, albert.LevelOK}, {800, 1000, albert.LevelWarning},
		{949, 1000, albert.LevelWarning}, {950, 1000, albert.LevelCritical}, {1000, 1000, albert.LevelExhausted},
	}
	for _, c := range cases {
		if got := albert.LevelOf(c.used, c.limit); got != c.want {
			t.Errorf("LevelOf(%d, %d) = %s, want %s", c.used, c.limit, got, c.want)
		}
	}
	q := albert.ModelQuota{Model: "m", Requests: 960, RPD: 1000, InputTokens: 10, TPD: 1000000}
	q.Grade()
	if q.Level != albert.LevelCritical || !strings.Contains(q.Warning(), "96 % (960 / 1,000 requests)") {
		t.Fatalf("the worse counter decides: %s, %q", q.Level, q.Warning())
	}
}
