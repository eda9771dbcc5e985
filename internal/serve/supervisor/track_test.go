package supervisor

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/etalab-ia/albert-code/internal/proctrack"
)

type groupLog struct {
	mu     sync.Mutex
	events []string
	groups []proctrack.Group
}

func (l *groupLog) Started(g proctrack.Group) { l.add("started", g) }
func (l *groupLog) Ended(g proctrack.Group)   { l.add("ended", g) }
func (l *groupLog) add(what string, g proctrack.Group) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, what)
	l.groups = append(l.groups, g)
}

// The agent's group is on record from its start until nothing of it is left, so a
// server that dies meanwhile can kill it at its next start.
func TestTheGroupIsReportedToTheRunsSink(t *testing.T) {
	t.Parallel()
	log := &groupLog{}
	ctx := proctrack.WithSink(bounded(t), log)
	// The agent prints its group's ID (its guardian's PID) and leaves a straggler.
	res, err := Run(ctx, Spec{Argv: sh(`cut -d' ' -f5 /proc/$$/stat; sleep 30 &`)})
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(res.Stdout.String()))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(log.events, " ") != "started ended" || log.groups[0].PGID != pid ||
		log.groups[0].Start == 0 || log.groups[1] != log.groups[0] {
		t.Errorf("sink heard %v of %v; want the group of %d started, then ended", log.events, log.groups, pid)
	}
	if !res.Stragglers {
		t.Errorf("the straggler was not seen, so the group's end came before its stop: %+v", res)
	}
}
