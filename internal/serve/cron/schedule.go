package cron

import (
	"fmt"
	"strings"
	"time"

	robfig "github.com/robfig/cron/v3"

	// A job file names IANA zones; embedding the database makes them work in a
	// container without /usr/share/zoneinfo.
	_ "time/tzdata"
)

// specParser reads 5 fields (minute resolution), or 6 with seconds first as the
// original documented, and the @daily family.
var specParser = robfig.NewParser(robfig.SecondOptional | robfig.Minute | robfig.Hour |
	robfig.Dom | robfig.Month | robfig.Dow | robfig.Descriptor)

// Schedule says when a job fires, in its time zone.
type Schedule struct {
	Spec     string
	Location *time.Location
	next     robfig.Schedule
}

// ParseSchedule reads spec in loc. A schedule that would not fire within the
// library's five-year search from now (February 30) is refused: it is a typo,
// not a job.
func ParseSchedule(spec string, loc *time.Location, now time.Time) (Schedule, error) {
	if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
		return Schedule{}, fmt.Errorf("%q: give the zone with the timezone key, not in the schedule", spec)
	}
	s, err := specParser.Parse(spec)
	if err != nil {
		return Schedule{}, fmt.Errorf("%q is not a schedule: %v; give 5 fields (\"0 9 * * 1-5\") or 6 with seconds first (\"*/30 * * * * *\")", spec, err)
	}
	sched := Schedule{Spec: spec, Location: loc, next: s}
	if sched.Next(now).IsZero() {
		return Schedule{}, fmt.Errorf("%q never fires (no such date in the next five years)", spec)
	}
	return sched, nil
}

// Next is the first fire time strictly after t, or the zero time if none. It
// mends the library's daylight-saving behaviour, which fired a daily 02:30 job
// twice when the clock goes back and not at all when it jumps forward:
//   - a wall time the clock shows twice fires once, at its first showing;
//   - a wall time the clock skips fires as time.Date reads it, shifted by the
//     jump (02:30 in Paris' spring gap is 03:30 CEST).
func (s Schedule) Next(t time.Time) time.Time {
	if s.next == nil {
		return time.Time{}
	}
	t = t.In(s.Location)
	n := s.next.Next(t)
	if !n.IsZero() && sameWallClock(n, t) {
		n = s.next.Next(n)
	}
	if skipped := s.inSkippedHour(t, n); !skipped.IsZero() {
		return skipped
	}
	return n
}

// inSkippedHour returns the first tick after t and before n whose wall time the
// clock skipped at a forward jump, read in the offset before the jump; or zero.
func (s Schedule) inSkippedHour(t, n time.Time) time.Time {
	for cur := t; cur.Before(n); {
		_, end := cur.ZoneBounds()
		if end.IsZero() || !end.Before(n) {
			return time.Time{}
		}
		if !end.After(cur) {
			// Past a zone's table (2037 for most), Go's ZoneBounds ends a leap year's
			// last day before it (Paris, 2040-12-31): step on, or this never ends.
			cur = cur.Add(time.Hour)
			continue
		}
		_, before := end.Add(-time.Second).Zone()
		_, after := end.Zone()
		if jump := time.Duration(after-before) * time.Second; jump > 0 {
			// In the old offset, the skipped wall times are the instants [end, end+jump).
			m := s.next.Next(end.Add(-time.Second).In(time.FixedZone("", before)))
			if !m.IsZero() && !m.Before(end) && m.Before(end.Add(jump)) && m.Before(n) && m.After(t) {
				return m.In(s.Location)
			}
		}
		cur = end
	}
	return time.Time{}
}

func sameWallClock(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd && a.Hour() == b.Hour() && a.Minute() == b.Minute() && a.Second() == b.Second()
}
