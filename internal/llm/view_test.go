package llm

import (
	"reflect"
	"testing"
)

func TestPromptViewFoldsSummaries(t *testing.T) {
	t.Parallel()
	u := func(s string) Message { return Message{Role: RoleUser, Content: s} }
	a := func(s string) Message { return Message{Role: RoleAssistant, Content: s} }
	sum := func(s string, n int) Message { return Message{Role: RoleUser, Content: s, Summary: true, Replaces: n} }
	tests := []struct {
		name    string
		history []Message
		want    []string
	}{
		{"no summary", []Message{u("1"), a("2")}, []string{"1", "2"}},
		{"replaces all", []Message{u("1"), a("2"), sum("S", 2), u("3")}, []string{"S", "3"}},
		{"keeps recent", []Message{u("1"), a("2"), u("3"), a("4"), sum("S", 2), u("5")}, []string{"S", "3", "4", "5"}},
		{"nested summaries", []Message{u("1"), a("2"), sum("S1", 2), u("3"), a("4"), sum("S2", 3), u("5")}, []string{"S2", "5"}},
		{"over-long replaces is clamped", []Message{u("1"), sum("S", 9)}, []string{"S"}},
	}
	for _, tt := range tests {
		var got []string
		for _, m := range PromptView(tt.history) {
			got = append(got, m.Content)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: view = %v, want %v", tt.name, got, tt.want)
		}
	}
}
