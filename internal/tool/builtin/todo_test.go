package builtin

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestTodoValidation(t *testing.T) {
	t.Parallel()
	item := func(id, status string) TodoItem {
		return TodoItem{ID: id, Content: "do " + id, Status: TodoStatus(status)}
	}
	tests := []struct {
		name    string
		todos   []TodoItem
		wantErr string
	}{
		{name: "valid", todos: []TodoItem{item("a", "completed"), item("b", "in_progress"), item("c", "pending"), item("d", "cancelled")}},
		{name: "empty clears", todos: []TodoItem{}},
		{name: "duplicate id", todos: []TodoItem{item("a", "pending"), item("a", "pending")}, wantErr: `id "a" is used twice`},
		{name: "two in progress", todos: []TodoItem{item("a", "in_progress"), item("b", "in_progress")}, wantErr: "2 items are in_progress"},
		{name: "unknown status", todos: []TodoItem{item("a", "done")}, wantErr: `status "done"`},
		{name: "missing id", todos: []TodoItem{item("", "pending")}, wantErr: "item 1 has no id"},
		{name: "missing content", todos: []TodoItem{{ID: "a", Status: TodoPending}}, wantErr: `item "a" has no content`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			list := &TodoList{}
			_ = list.Set([]TodoItem{item("old", "pending")})
			res := run(t, Todo(list), TodoParams{Todos: tt.todos})
			if tt.wantErr != "" {
				wantError(t, res, tt.wantErr)
				if got := list.Items(); len(got) != 1 || got[0].ID != "old" {
					t.Errorf("a refused list replaced the old one: %v", got)
				}
				return
			}
			wantOK(t, res)
			if got := list.Items(); !slices.Equal(got, tt.todos) {
				t.Errorf("Items = %v, want %v", got, tt.todos)
			}
			if d, ok := res.Display.([]TodoItem); !ok || !slices.Equal(d, tt.todos) {
				t.Errorf("Display = %#v", res.Display)
			}
		})
	}
}

func TestTodoOutputAndSchema(t *testing.T) {
	t.Parallel()
	list := &TodoList{}
	todo := Todo(list)
	res := run(t, todo, TodoParams{Todos: []TodoItem{
		{ID: "1", Content: "Write tests", Status: TodoCompleted},
		{ID: "2", Content: "Fix bug", Status: TodoInProgress},
	}})
	want := "Todo list saved (1 of 2 done):\n[x] 1: Write tests\n[>] 2: Fix bug\n"
	if res.Output != want {
		t.Errorf("output = %q, want %q", res.Output, want)
	}
	if !strings.Contains(string(todo.Info().Schema), `"enum":["pending","in_progress","completed","cancelled"]`) {
		t.Errorf("schema lacks the status enum: %s", todo.Info().Schema)
	}
}

func TestTodoListSnapshotsAreIsolated(t *testing.T) {
	t.Parallel()
	list := &TodoList{}
	in := []TodoItem{{ID: "a", Content: "x", Status: TodoPending}}
	if err := list.Set(in); err != nil {
		t.Fatal(err)
	}
	in[0].Content = "changed by caller"
	out := list.Items()
	out[0].Content = "changed by reader"
	if list.Items()[0].Content != "x" {
		t.Error("the list shares memory with its callers")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			_ = list.Set(in)
			_ = list.Items()
		})
	}
	wg.Wait()
}
