package builtin

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/tool"
)

// run calls t through tool.Invoke, as the agent does, with args marshalled to JSON.
func run(t *testing.T, tl tool.Tool, args any) tool.Result {
	t.Helper()
	return runCtx(t, context.Background(), tl, args, nil)
}

func runCtx(t *testing.T, ctx context.Context, tl tool.Tool, args any, progress func(string)) tool.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res, err := tool.Invoke(ctx, tl, tool.Call{ID: "call-1", Args: raw, Progress: progress})
	if err != nil {
		t.Fatalf("%s: infrastructure error: %v", tl.Info().Name, err)
	}
	return res
}

func wantOK(t *testing.T, res tool.Result) {
	t.Helper()
	if res.IsError {
		t.Fatalf("unexpected error result: %s", res.Output)
	}
}

func wantError(t *testing.T, res tool.Result, substr string) {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want an error result containing %q, got success: %s", substr, res.Output)
	}
	if !strings.Contains(res.Output, substr) {
		t.Fatalf("error %q does not contain %q", res.Output, substr)
	}
}

func TestAllNamesAndFlags(t *testing.T) {
	t.Parallel()
	tools := All(Env{WorkDir: t.TempDir()}, Deps{})
	var names []string
	readOnly := map[string]bool{}
	for _, tl := range tools {
		info := tl.Info()
		names = append(names, info.Name)
		readOnly[info.Name] = info.ReadOnly
		if info.Description == "" || info.Kind == "" || len(info.Schema) == 0 {
			t.Errorf("%s: description, kind and schema must be set", info.Name)
		}
	}
	want := []string{"ask_user_question", "bash", "edit", "glob", "grep", "read", "task", "todo", "web_fetch", "web_search", "write"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Fatalf("names = %v, want %v", names, want)
	}
	if _, err := tool.NewRegistry(tools...); err != nil {
		t.Fatal(err)
	}
	for name, ro := range map[string]bool{"bash": false, "write": false, "edit": false, "task": false, "read": true, "grep": true, "glob": true, "todo": true, "web_fetch": true} {
		if readOnly[name] != ro {
			t.Errorf("%s: ReadOnly = %v, want %v", name, readOnly[name], ro)
		}
	}
}

// TestInvalidArgumentsAreModelVisible proves bad JSON from the model comes back as a
// tool error the model can read, end to end through Invoke, not as a Go error.
func TestInvalidArgumentsAreModelVisible(t *testing.T) {
	t.Parallel()
	read := Read(Env{WorkDir: t.TempDir()})
	for _, args := range []string{`{"path": `, `{"offset": 3}`, `{"path": 7}`} {
		res, err := tool.Invoke(context.Background(), read, tool.Call{Args: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s: Go error %v, want a model-visible error", args, err)
		}
		wantError(t, res, "invalid arguments for read")
	}
}

func TestPathsResolveAgainstWorkDir(t *testing.T) {
	t.Parallel()
	env := Env{WorkDir: "/work/space"}
	for _, c := range []struct {
		tl   tool.Tool
		args string
	}{
		{Read(env), `{"path":"a/../b.go"}`},
		{Write(env), `{"path":"a/../b.go","content":""}`},
		{Edit(env), `{"path":"a/../b.go","old_string":"x","new_string":"y"}`},
		{Grep(env), `{"path":"a/../b.go","pattern":"x"}`},
	} {
		got := c.tl.(tool.Pather).Paths(json.RawMessage(c.args))
		if !slices.Equal(got, []string{"/work/space/b.go"}) {
			t.Errorf("%s: Paths = %v", c.tl.Info().Name, got)
		}
	}
	got := Glob(env).(tool.Pather).Paths(json.RawMessage(`{"pattern":"/etc/**/*.conf"}`))
	if !slices.Equal(got, []string{"/etc"}) {
		t.Errorf("glob: Paths = %v, want [/etc]", got)
	}
}

// Schemas are resolved lazily, on a tool's first call; this makes every tool resolve
// its schema so a schema that cannot be resolved fails here, not in a user's session.
func TestEverySchemaResolvesAndRejectsNonObjects(t *testing.T) {
	t.Parallel()
	for _, tl := range All(Env{WorkDir: t.TempDir()}, Deps{}) {
		res, err := tool.Invoke(context.Background(), tl, tool.Call{Args: json.RawMessage(`[1, 2]`)})
		if err != nil {
			t.Errorf("%s: %v", tl.Info().Name, err)
			continue
		}
		wantError(t, res, "invalid arguments for "+tl.Info().Name)
	}
}
