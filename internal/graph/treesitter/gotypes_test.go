package treesitter

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// goUses extracts Go src and returns its calls and references, edges and
// sites, rendered one per line.
func goUses(t *testing.T, rel, src string) []string {
	t.Helper()
	ff, err := Extract(context.Background(), rel, "go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ff.ParseError != "" {
		t.Fatalf("ParseError = %q", ff.ParseError)
	}
	return slices.DeleteFunc(render(ff), func(l string) bool {
		return !strings.HasPrefix(l, "edge calls ") && !strings.HasPrefix(l, "edge references ") && !strings.HasPrefix(l, "unresolved ")
	})
}

// A method call on a receiver, a parameter, a `var`, a composite literal, a
// constructor's result, a field of a typed value or a range element is written on
// the value's type, for the cross-file pass to find the method; a local of
// unknown type is left as written.
func TestGoReceiverTypes(t *testing.T) {
	t.Parallel()
	got := goUses(t, "p/run.go", `package p

import "example.com/m/store"

func (s *Server) run(c *store.Client, items []*Item) {
	s.stop()
	c.Get()
	var q Queue
	q.Push()
	b := &Buffer{}
	b.Reset()
	n := NewNode()
	n.Walk()
	s.cfg.Load()
	NewNode().Walk()
	for _, it := range items {
		it.Close()
	}
	x := items[0]
	x.Do()
}
`)
	expectUses(t, got, []string{
		"unresolved calls p/run.go::Server::run -> Buffer.Reset @11:2",
		"unresolved calls p/run.go::Server::run -> Item.Close @17:3",
		"unresolved calls p/run.go::Server::run -> NewNode @12:7",
		"unresolved calls p/run.go::Server::run -> NewNode @15:2",
		"unresolved calls p/run.go::Server::run -> NewNode.Walk @13:2",
		"unresolved calls p/run.go::Server::run -> NewNode.Walk @15:2",
		"unresolved calls p/run.go::Server::run -> Queue.Push @9:2",
		"unresolved calls p/run.go::Server::run -> Server.cfg.Load @14:2",
		"unresolved calls p/run.go::Server::run -> Server.stop @6:2",
		"unresolved calls p/run.go::Server::run -> store.Client.Get @7:2",
		"unresolved calls p/run.go::Server::run -> x.Do @20:2",
		"unresolved references p/run.go::Server::run -> Buffer @10:8",
		"unresolved references p/run.go::Server::run -> Item @5:48",
		"unresolved references p/run.go::Server::run -> Queue @8:8",
		"unresolved references p/run.go::Server::run -> Server @5:10",
		"unresolved references p/run.go::Server::run -> Server.cfg @14:2",
		"unresolved references p/run.go::Server::run -> store.Client @5:25",
	})
}

// The member accesses inside a callee are uses, written on the value's type;
// parameters and locals are not uses of a package-level name, other names are
// left to the pass (another file of the package may define them).
func TestGoMemberChainsAndLocals(t *testing.T) {
	t.Parallel()
	got := goUses(t, "p/use.go", `package p

func use(cfg Config, log string) {
	cfg.Store.Client.Send()
	level := cfg.Log
	Helper(level, log, len(log))
	defaultConfig.Store.Reset()
}
`)
	expectUses(t, got, []string{
		"unresolved calls p/use.go::use -> Config.Store.Client.Send @4:2",
		"unresolved calls p/use.go::use -> Helper @6:2",
		"unresolved calls p/use.go::use -> defaultConfig.Store.Reset @7:2",
		"unresolved calls p/use.go::use -> len @6:21",
		"unresolved references p/use.go::use -> Config @3:14",
		"unresolved references p/use.go::use -> Config.Log @5:11",
		"unresolved references p/use.go::use -> Config.Store @4:2",
		"unresolved references p/use.go::use -> Config.Store.Client @4:2",
		"unresolved references p/use.go::use -> defaultConfig @7:2",
		"unresolved references p/use.go::use -> defaultConfig.Store @7:2",
	})
}
