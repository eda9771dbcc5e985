package cron

import (
	"strings"
	"testing"
	"time"
)

func TestScheduleNext(t *testing.T) {
	t.Parallel()
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) // a Monday
	cases := []struct {
		spec string
		loc  *time.Location
		want time.Time
	}{
		{"0 9 * * *", time.UTC, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)},
		{"*/30 * * * * *", time.UTC, from.Add(30 * time.Second)},
		{"15 0 9 * * *", time.UTC, time.Date(2026, 12, 1, 9, 0, 15, 0, time.UTC)},
		// 9:00 in Paris is 8:00 UTC in winter.
		{"0 9 * * *", paris, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)},
		{"0 13 * * *", paris, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC).Add(24 * time.Hour)},
		{"@hourly", time.UTC, from.Add(time.Hour)},
		{"0 0 * * 6", time.UTC, time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		s, err := ParseSchedule(c.spec, c.loc, from)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if got := s.Next(from); !got.Equal(c.want) {
			t.Errorf("%s in %s: next = %v, want %v", c.spec, c.loc, got, c.want)
		}
	}
}

// A schedule only a leap year satisfies still fires; one no calendar has does not.
func TestScheduleNeverFires(t *testing.T) {
	t.Parallel()
	from := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	if _, err := ParseSchedule("0 0 29 2 *", time.UTC, from); err != nil {
		t.Errorf("29 February refused: %v", err)
	}
	_, err := ParseSchedule("0 0 31 4 *", time.UTC, from)
	if err == nil || !strings.Contains(err.Error(), "never fires") {
		t.Errorf("31 April: err = %v", err)
	}
}

// Daylight saving in Paris: the clock goes back at 03:00 CEST on 25 October 2026
// and forward at 02:00 CET on 29 March 2026.
func TestScheduleAcrossDaylightSaving(t *testing.T) {
	t.Parallel()
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	utc := func(mo time.Month, d, h, mi int) time.Time { return time.Date(2026, mo, d, h, mi, 0, 0, time.UTC) }
	cases := []struct {
		name, spec string
		from       time.Time
		want       []time.Time
	}{
		{"a daily job in the repeated hour runs once", "30 2 * * *", utc(10, 24, 0, 0),
			[]time.Time{utc(10, 24, 0, 30), utc(10, 25, 0, 30), utc(10, 26, 1, 30)}},
		{"an hourly job runs each real hour but not the repeated wall time", "0 * * * *", utc(10, 24, 23, 30),
			[]time.Time{utc(10, 25, 0, 0), utc(10, 25, 2, 0), utc(10, 25, 3, 0)}},
		{"a job every 30 minutes runs through the repeated hour", "*/30 * * * *", utc(10, 25, 0, 15),
			[]time.Time{utc(10, 25, 0, 30), utc(10, 25, 1, 0), utc(10, 25, 1, 30), utc(10, 25, 2, 0)}},
		{"a daily job in the skipped hour runs after the jump", "30 2 * * *", utc(3, 28, 0, 0),
			[]time.Time{utc(3, 28, 1, 30), utc(3, 29, 1, 30), utc(3, 30, 0, 30)}},
		{"an hourly job is not doubled by the jump", "0 * * * *", utc(3, 28, 23, 30),
			[]time.Time{utc(3, 29, 0, 0), utc(3, 29, 1, 0), utc(3, 29, 2, 0)}},
	}
	for _, c := range cases {
		s, err := ParseSchedule(c.spec, paris, c.from)
		if err != nil {
			t.Fatal(err)
		}
		got := c.from
		for i, want := range c.want {
			got = s.Next(got)
			if !got.Equal(want) {
				t.Errorf("%s: tick %d = %v (%v), want %v", c.name, i, got.UTC(), got, want)
				break
			}
		}
	}
}

func TestScheduleRefusesAZoneInTheSpec(t *testing.T) {
	t.Parallel()
	_, err := ParseSchedule("CRON_TZ=Europe/Paris 0 9 * * *", time.UTC, time.Now())
	if err == nil || !strings.Contains(err.Error(), "timezone key") {
		t.Errorf("err = %v", err)
	}
}

// Past 2037 Go extends a zone by its rule, and its ZoneBounds ends the last day of
// a leap year before that day: the skipped-hour search looped forever there.
func TestScheduleNextPastTheZoneTable(t *testing.T) {
	t.Parallel()
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		spec       string
		from, want time.Time
	}{
		{"0 0 29 2 *", time.Date(2040, 2, 29, 0, 0, 0, 0, paris), time.Date(2044, 2, 29, 0, 0, 0, 0, paris)},
		{"0 9 * * *", time.Date(2040, 12, 31, 10, 0, 0, 0, paris), time.Date(2041, 1, 1, 9, 0, 0, 0, paris)},
	}
	for _, c := range cases {
		s, err := ParseSchedule(c.spec, paris, c.from)
		if err != nil {
			t.Fatal(err)
		}
		next := make(chan time.Time, 1)
		go func() { next <- s.Next(c.from) }()
		select {
		case got := <-next:
			if !got.Equal(c.want) {
				t.Errorf("%s after %v: next = %v, want %v", c.spec, c.from, got, c.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s after %v: Next did not return", c.spec, c.from)
		}
	}
}
