package cron

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/problems"
)

// fuzzZones are zones with the clock changes schedules trip on: none, an hour
// each way, half an hour (Lord Howe), odd offsets (Kathmandu, Chatham).
var fuzzZones = []string{"UTC", "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham"}

// fuzzTime maps any number to an instant between 1970 and about 2106, where job
// files are read.
func fuzzTime(n int64) time.Time {
	return time.Unix(int64(uint64(n)%(1<<32)), 0)
}

// FuzzParseSchedule reads any spec in any zone at any time: it never panics, is
// deterministic, and a spec it accepts fires after the time it was checked at,
// each next time after the one before or never again (the zero time).
func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{
		"0 9 * * 1-5", "*/30 * * * * *", "30 2 * * *", "0 0 29 2 *", "0 0 30 2 *", "@every 90s", "@daily",
		"TZ=Europe/Paris 0 9 * * *", "CRON_TZ=", "@every", "@every -1s", "1-0 * * * *", "*/0 * * * *",
		"0-59/99999999999999999999 * * * *", "? ? ? ? ?", "0 0 1,15 JAN-DEC SUN", "  ", "\x00",
	} {
		f.Add(s, int64(1796040000), uint8(1))
	}
	f.Fuzz(func(t *testing.T, spec string, at int64, zone uint8) {
		loc, err := time.LoadLocation(fuzzZones[int(zone)%len(fuzzZones)])
		if err != nil {
			t.Fatal(err)
		}
		now := fuzzTime(at)
		s, err := ParseSchedule(spec, loc, now)
		again, err2 := ParseSchedule(spec, loc, now)
		if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("%q parsed twice: %v, then %v", spec, err, err2)
		}
		if err != nil {
			if !strings.Contains(err.Error(), strconv.Quote(spec)) {
				t.Fatalf("error %q does not name the spec %q", err, spec)
			}
			return
		}
		next := s.Next(now)
		if !next.After(now) {
			t.Fatalf("%q in %s accepted at %v: next = %v, not after it", spec, loc, now, next)
		}
		if other := again.Next(now); !other.Equal(next) {
			t.Fatalf("%q in %s: next %v, then %v for the same parse", spec, loc, next, other)
		}
		for range 5 {
			following := s.Next(next)
			if following.IsZero() {
				return // never again: the library's five-year search found nothing
			}
			if !following.After(next) {
				t.Fatalf("%q in %s: after %v comes %v", spec, loc, next, following)
			}
			next = following
		}
	})
}

// FuzzParseFile reads any job file: it never panics, and every problem names
// the file and the line, unless the file as a whole is at fault or the YAML
// library gave none (it names no line for a control character or an unknown
// anchor).
func FuzzParseFile(f *testing.F) {
	for _, s := range []string{
		"jobs:\n  - name: a\n    schedule: \"0 9 * * *\"\n    instruction: go\n",
		"model: m\ntimezone: Europe/Paris\njobs:\n  - name: a\n    schedule: \"@every 1m\"\n    instruction: x\n    timeout: 0\n  - name: a\n",
		"jobs: []\n", "jobs: x\n", "- 1\n", "", "\x00", "jobs:\n  - *a\n", "a: &a [*a]\njobs: *a\n",
		"jobs:\n  - {name: \"../x\", schedule: \"0 0 30 2 *\", instruction: \" \", workspace: /etc, telegram_chat_id: [1]}\n",
		"effort: low\nthinking: high\njobs:\n  - name: b\n    schedule: 5\n    instruction: y\n    timezone: Mars/Base\n",
		"jobs:\n\t- tab\n", "{jobs: [{name: x, name: y}]}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("jobs.yml", data, parseNow)
		if err == nil {
			if file == nil || len(file.Jobs) == 0 {
				t.Fatalf("accepted with no jobs: %+v", file)
			}
			return
		}
		var ps problems.List
		if !errors.As(err, &ps) || len(ps) == 0 {
			t.Fatalf("error %v (%T) is not a list of problems", err, err)
		}
		for _, p := range ps {
			if p.Where != "jobs.yml" || p.Message == "" {
				t.Fatalf("problem %+v does not name the file or say what is wrong", p)
			}
			if p.Line <= 0 && !wholeFileProblem(p) {
				t.Fatalf("problem %q names no line", p.Error())
			}
		}
	})
}

// wholeFileProblem reports a problem about the file as a whole, which has no
// line of its own; a YAML syntax error carries its line in its message, when the
// library knows it.
func wholeFileProblem(p problems.Problem) bool {
	return strings.HasPrefix(p.Message, "the file is empty") || strings.HasPrefix(p.Message, "not valid YAML: ")
}
