package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

func TestLimitMiddlewares(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name string
		m    Middleware
		info TurnInfo
		want StopReason
	}{
		{"turn within limit", TurnLimit{Max: 2}, TurnInfo{Turn: 2}, ""},
		{"turn over limit", TurnLimit{Max: 2}, TurnInfo{Turn: 3}, StopMaxTurns},
		{"no turn limit", TurnLimit{}, TurnInfo{Turn: 99}, ""},
		{"under price", PriceCap{Max: 1}, TurnInfo{Stats: Stats{Cost: 0.5}}, ""},
		{"at price", PriceCap{Max: 1}, TurnInfo{Stats: Stats{Cost: 1}}, StopMaxPrice},
		{"no price cap", PriceCap{}, TurnInfo{Stats: Stats{Cost: 1e9}}, ""},
	}
	for _, tt := range tests {
		if got := tt.m.BeforeTurn(ctx, tt.info).Stop; got != tt.want {
			t.Errorf("%s: stop = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestContextWarningSpeaksOnce(t *testing.T) {
	t.Parallel()
	m := &ContextWarning{Fraction: 0.5}
	ctx := context.Background()
	if a := m.BeforeTurn(ctx, TurnInfo{ContextWindow: 1000, Stats: Stats{ContextTokens: 400}}); a.Notice != "" {
		t.Fatalf("warned at 40%%: %q", a.Notice)
	}
	a := m.BeforeTurn(ctx, TurnInfo{ContextWindow: 1000, Stats: Stats{ContextTokens: 600}})
	if !strings.Contains(a.Notice, "60%") {
		t.Fatalf("notice = %q", a.Notice)
	}
	if a := m.BeforeTurn(ctx, TurnInfo{ContextWindow: 1000, Stats: Stats{ContextTokens: 700}}); a.Notice != "" {
		t.Fatal("warned twice")
	}
	if a := (&ContextWarning{Fraction: 0.5}).BeforeTurn(ctx, TurnInfo{Stats: Stats{ContextTokens: 1e9}}); a.Notice != "" {
		t.Fatal("warned with an unknown window")
	}
}

func TestAutoCompactThreshold(t *testing.T) {
	t.Parallel()
	m := AutoCompact{Fraction: 0.8}
	ctx := context.Background()
	if m.BeforeTurn(ctx, TurnInfo{ContextWindow: 1000, Stats: Stats{ContextTokens: 799}}).Compact {
		t.Fatal("compacted below the threshold")
	}
	if !m.BeforeTurn(ctx, TurnInfo{ContextWindow: 1000, Stats: Stats{ContextTokens: 800}}).Compact {
		t.Fatal("did not compact at the threshold")
	}
	if m.BeforeTurn(ctx, TurnInfo{Stats: Stats{ContextTokens: 1e9}}).Compact {
		t.Fatal("compacted with an unknown window")
	}
}

func TestTodoFocusCadence(t *testing.T) {
	t.Parallel()
	items := []Todo{{Content: "write tests", Status: "in_progress"}, {Content: "ship", Status: "pending"}}
	m := &TodoFocus{Every: 3, Items: func() []Todo { return items }}
	ctx := context.Background()
	var reminded []int
	for turn := 1; turn <= 8; turn++ {
		if turn == 5 {
			items = append([]Todo(nil), items...)
			items[0].Status = "completed" // the model updated its list: the clock restarts
		}
		if a := m.BeforeTurn(ctx, TurnInfo{Turn: turn}); a.Inject != "" {
			reminded = append(reminded, turn)
			if !strings.Contains(a.Inject, "[ ] ship") {
				t.Fatalf("reminder lacks the open item: %q", a.Inject)
			}
		}
	}
	if got := fmt.Sprint(reminded); got != "[4 8]" {
		t.Fatalf("reminded at turns %v, want 4 and 8", reminded)
	}
	done := &TodoFocus{Every: 1, Items: func() []Todo { return []Todo{{Content: "x", Status: "completed"}} }}
	for turn := 1; turn < 5; turn++ {
		if done.BeforeTurn(ctx, TurnInfo{Turn: turn}).Inject != "" {
			t.Fatal("reminded with no open todo")
		}
	}
}

func TestReadOnlyGuardRemindsOnce(t *testing.T) {
	t.Parallel()
	m := &ReadOnlyGuard{}
	if !strings.Contains(m.BeforeTurn(context.Background(), TurnInfo{}).Inject, "plan mode") {
		t.Fatal("no reminder on the first call")
	}
	if m.BeforeTurn(context.Background(), TurnInfo{}).Inject != "" {
		t.Fatal("reminded twice")
	}
}

func TestCompactionCut(t *testing.T) {
	t.Parallel()
	u := llm.Message{Role: llm.RoleUser, Content: "q"}
	syn := llm.Message{Role: llm.RoleUser, Content: "reminder", Synthetic: true}
	a := llm.Message{Role: llm.RoleAssistant, Content: "a"}
	ac := llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1"}}}
	tr := llm.Message{Role: llm.RoleTool, ToolCallID: "1"}
	tests := []struct {
		name string
		view []llm.Message
		keep int
		want int
	}{
		{"empty", nil, 1, 0},
		{"only the current prompt", []llm.Message{u}, 1, 0},
		{"keeps the latest exchange", []llm.Message{u, a, u, ac, tr}, 1, 2},
		{"zero means one", []llm.Message{u, a, u, ac, tr}, 0, 2},
		{"keeps two exchanges", []llm.Message{u, a, u, a, u, ac, tr}, 2, 2},
		{"fewer exchanges than asked keeps the latest", []llm.Message{u, a, u, a}, 3, 2},
		{"ignores synthetic user messages", []llm.Message{u, a, u, ac, tr, syn, a}, 1, 2},
		{"one long tool loop cuts before the last answer", []llm.Message{u, ac, tr, ac, tr, a}, 2, 5},
	}
	for _, tt := range tests {
		if got := compactionCut(tt.view, tt.keep); got != tt.want {
			t.Errorf("%s: cut = %d, want %d", tt.name, got, tt.want)
		}
	}
}
