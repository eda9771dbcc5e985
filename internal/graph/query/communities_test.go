package query

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// Two groups of functions that call within themselves, one call between them.
const twoClusters = `package app

type Parser struct{ depth int }

func (p *Parser) Parse(s string) int { return p.token(s) + p.expr(s) }
func (p *Parser) token(s string) int { return p.expr(s) + len(s) + p.depth }
func (p *Parser) expr(s string) int  { return p.term(s) }
func (p *Parser) term(s string) int  { return len(s) }

func Render(x int) string { return header(x) + body(x) + footer(x) }
func header(x int) string { return body(x) + footer(x) }
func body(x int) string   { return footer(x) }
func footer(x int) string { return string(rune(x)) }

func Main() string { return Render(new(Parser).Parse("a")) }

func Lonely() {}
`

func TestCommunities(t *testing.T) {
	st := indexModule(t, "example.com/c", "app/app.go", twoClusters)
	ctx := context.Background()
	a, err := Communities(ctx, st, "", CommunityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Count != 2 || a.Certainty != LowerBound || !strings.Contains(a.Why, "heuristic") {
		t.Fatalf("answer = %+v", a)
	}
	group := func(c Community) string {
		var names []string
		for _, m := range c.Members {
			names = append(names, strings.TrimPrefix(m.QName, "example.com/c/app."))
		}
		slices.Sort(names)
		return strings.Join(names, " ")
	}
	got := map[string]bool{}
	for _, c := range a.Communities {
		got[group(c)] = true
		if c.Directories[0].Dir != "app" || !strings.HasPrefix(c.Name, "app: ") || c.Members[0].File != "app/app.go" {
			t.Errorf("community %+v", c)
		}
	}
	// The parser with its type; the renderer with Main, which calls it. Lonely
	// joins nothing.
	for _, want := range []string{"Parser Parser.Parse Parser.expr Parser.term Parser.token", "Main Render body footer header"} {
		if !got[want] {
			t.Errorf("no community %q in %v", want, got)
		}
	}
	if a.Singletons != 1 {
		t.Errorf("singletons = %d, want 1 (Lonely)", a.Singletons)
	}

	again, _ := Communities(ctx, st, "", CommunityOptions{})
	if group(again.Communities[0]) != group(a.Communities[0]) {
		t.Error("communities are not deterministic")
	}

	page, err := Communities(ctx, st, "", CommunityOptions{Limit: 1})
	if err != nil || len(page.Communities) != 1 || !page.Truncated || page.NextOffset != 1 {
		t.Fatalf("page = %+v, %v", page, err)
	}

	one, err := Communities(ctx, st, "token", CommunityOptions{})
	if err != nil || len(one.Communities) != 1 || !strings.Contains(group(one.Communities[0]), "Parser.token") {
		t.Fatalf("community of token = %+v, %v", one, err)
	}
	lonely, err := Communities(ctx, st, "Lonely", CommunityOptions{})
	if err != nil || len(lonely.Communities) != 0 || !strings.Contains(lonely.Why, "belongs to none") {
		t.Fatalf("community of Lonely = %+v, %v", lonely, err)
	}
	var unknown *UnknownSymbolError
	if _, err := Communities(ctx, st, "Rendr", CommunityOptions{}); !errors.As(err, &unknown) || len(unknown.DidYouMean) == 0 {
		t.Fatalf("unknown symbol: %v", err)
	}
	if _, err := Communities(ctx, st, "", CommunityOptions{Resolution: -1}); err == nil {
		t.Fatal("negative resolution accepted")
	}
}
