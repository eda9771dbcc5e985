package builtin

import (
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed todo.md
var todoDescription string

// maxTodos is the original's max_todos: a longer list is a plan, not a todo list.
const maxTodos = 100

// TodoStatus is where a todo item stands.
type TodoStatus string

const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoCompleted  TodoStatus = "completed"
	TodoCancelled  TodoStatus = "cancelled"
)

var todoStatuses = []TodoStatus{TodoPending, TodoInProgress, TodoCompleted, TodoCancelled}

// TodoItem is one entry of the list.
type TodoItem struct {
	ID      string     `json:"id" jsonschema:"a short stable identifier, unique in the list"`
	Content string     `json:"content" jsonschema:"what to do, in one imperative sentence"`
	Status  TodoStatus `json:"status" jsonschema:"pending, in_progress, completed or cancelled"`
}

// TodoList is the agent's todo list for one session. The todo tool replaces it
// whole; a middleware reminding the model of open items and the faces showing
// progress read it. Its zero value is an empty list ready to use.
type TodoList struct {
	mu    sync.Mutex
	items []TodoItem
}

// Items returns a copy of the current list.
func (l *TodoList) Items() []TodoItem {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.items)
}

// Set replaces the list after checking it: ids present and unique, content present,
// known statuses, at most one item in progress (the model works on one thing at a
// time, and the face shows it as "now doing").
func (l *TodoList) Set(items []TodoItem) error {
	if len(items) > maxTodos {
		return fmt.Errorf("the list has %d items; keep it to %d", len(items), maxTodos)
	}
	seen := map[string]bool{}
	inProgress := 0
	for i, it := range items {
		switch {
		case strings.TrimSpace(it.ID) == "":
			return fmt.Errorf("item %d has no id", i+1)
		case seen[it.ID]:
			return fmt.Errorf("id %q is used twice; ids must be unique", it.ID)
		case strings.TrimSpace(it.Content) == "":
			return fmt.Errorf("item %q has no content", it.ID)
		case !slices.Contains(todoStatuses, it.Status):
			return fmt.Errorf("item %q has status %q; use pending, in_progress, completed or cancelled", it.ID, it.Status)
		}
		seen[it.ID] = true
		if it.Status == TodoInProgress {
			inProgress++
		}
	}
	if inProgress > 1 {
		return fmt.Errorf("%d items are in_progress; keep exactly one in progress at a time", inProgress)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = slices.Clone(items)
	return nil
}

// TodoParams are the arguments of the todo tool.
type TodoParams struct {
	Todos []TodoItem `json:"todos" jsonschema:"the complete list, replacing the previous one"`
}

// Todo replaces the session's todo list. Its Display is the new list ([]TodoItem).
func Todo(list *TodoList) tool.Tool {
	return tool.New(tool.Def[TodoParams]{
		Info: tool.Info{
			Name: "todo", Description: todoDescription, ReadOnly: true, Kind: tool.KindThink,
			Schema: schemaFor[TodoParams](func(s schemaNode) {
				var enum []string
				for _, st := range todoStatuses {
					enum = append(enum, string(st))
				}
				s.Prop("todos").Items().Prop("status")["enum"] = enum
				s.Prop("todos")["maxItems"] = maxTodos
			}),
		},
		Run: func(ctx context.Context, call tool.Call, p TodoParams) (tool.Result, error) {
			if err := list.Set(p.Todos); err != nil {
				return tool.Errorf("todo list not saved: %v", err), nil
			}
			items := list.Items()
			return tool.Result{Output: renderTodos(items), Display: items}, nil
		},
	})
}

var todoMarks = map[TodoStatus]string{
	TodoPending: "[ ]", TodoInProgress: "[>]", TodoCompleted: "[x]", TodoCancelled: "[-]",
}

func renderTodos(items []TodoItem) string {
	if len(items) == 0 {
		return "Todo list cleared."
	}
	var sb strings.Builder
	done := 0
	for _, it := range items {
		fmt.Fprintf(&sb, "%s %s: %s\n", todoMarks[it.Status], it.ID, it.Content)
		if it.Status == TodoCompleted || it.Status == TodoCancelled {
			done++
		}
	}
	return fmt.Sprintf("Todo list saved (%d of %d done):\n%s", done, len(items), sb.String())
}
