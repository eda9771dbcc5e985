package session

import (
	"reflect"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

func TestRepair(t *testing.T) {
	t.Parallel()
	type hist = []llm.Message
	tests := []struct {
		name           string
		in, want       hist
		added, dropped int
	}{
		{
			name: "plain conversation unchanged",
			in:   hist{user("hi"), assistant("hello")},
			want: hist{user("hi"), assistant("hello")},
		},
		{
			name: "complete tool round unchanged",
			in:   hist{user("go"), assistant("", "a", "b"), result("a"), result("b"), assistant("done")},
			want: hist{user("go"), assistant("", "a", "b"), result("a"), result("b"), assistant("done")},
		},
		{
			name: "results in another order are kept as they are",
			in:   hist{assistant("", "a", "b"), result("b"), result("a")},
			want: hist{assistant("", "a", "b"), result("b"), result("a")},
		},
		{
			name:  "missing second result added after the first",
			in:    hist{user("go"), assistant("", "a", "b"), result("a"), user("next")},
			want:  hist{user("go"), assistant("", "a", "b"), result("a"), synthetic("b"), user("next")},
			added: 1,
		},
		{
			name:  "no results at all, at the end of the history",
			in:    hist{user("go"), assistant("", "a", "b")},
			want:  hist{user("go"), assistant("", "a", "b"), synthetic("a"), synthetic("b")},
			added: 2,
		},
		{
			name:    "orphan after a user message dropped",
			in:      hist{user("go"), result("x"), assistant("ok")},
			want:    hist{user("go"), assistant("ok")},
			dropped: 1,
		},
		{
			name:    "orphan at the start dropped",
			in:      hist{result("x"), user("go")},
			want:    hist{user("go")},
			dropped: 1,
		},
		{
			name:    "result for an unknown call dropped, real call answered synthetically",
			in:      hist{assistant("", "a"), result("zzz")},
			want:    hist{assistant("", "a"), synthetic("a")},
			added:   1,
			dropped: 1,
		},
		{
			name:    "late result after a user message is an orphan",
			in:      hist{assistant("", "a"), user("stop"), result("a")},
			want:    hist{assistant("", "a"), synthetic("a"), user("stop")},
			added:   1,
			dropped: 1,
		},
		{
			name:    "duplicate result dropped",
			in:      hist{assistant("", "a"), result("a"), result("a")},
			want:    hist{assistant("", "a"), result("a")},
			dropped: 1,
		},
		{
			name:    "result answering an earlier assistant's call dropped",
			in:      hist{assistant("", "a"), result("a"), assistant("", "b"), result("a")},
			want:    hist{assistant("", "a"), result("a"), assistant("", "b"), synthetic("b")},
			added:   1,
			dropped: 1,
		},
		{
			name: "empty history",
			in:   hist{},
			want: hist{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before := slices.Clone(tt.in)
			got, added, dropped := repair(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("repair:\n got  %+v\n want %+v", got, tt.want)
			}
			if added != tt.added || dropped != tt.dropped {
				t.Errorf("repair counted added=%d dropped=%d, want %d, %d", added, dropped, tt.added, tt.dropped)
			}
			if !reflect.DeepEqual(tt.in, before) {
				t.Errorf("repair modified its input")
			}
			if pub := Repair(tt.in); !reflect.DeepEqual(pub, tt.want) {
				t.Errorf("Repair differs from repair: %+v", pub)
			}
			// Repair is idempotent: its output needs no further repair.
			if again, a, d := repair(got); a+d != 0 || !reflect.DeepEqual(again, got) {
				t.Errorf("second repair changed the history: added=%d dropped=%d", a, d)
			}
		})
	}
}

func TestRepairValidHistoryNotCopied(t *testing.T) {
	t.Parallel()
	in := []llm.Message{user("go"), assistant("", "a"), result("a")}
	out := Repair(in)
	if &out[0] != &in[0] {
		t.Errorf("Repair copied a valid history; the agent calls it every turn, it should be free")
	}
}
