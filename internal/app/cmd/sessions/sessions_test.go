package sessions

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/session"
)

func TestFlagsReachTheOptions(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	var list *ListOptions
	if err := cmdtest.Run(NewCmdList(f, func(o *ListOptions) error { list = o; return nil }), "--all", "--json"); err != nil {
		t.Fatal(err)
	}
	if !list.All || !list.JSON {
		t.Fatalf("list --all --json: %+v", list)
	}
	var show *ShowOptions
	if err := cmdtest.Run(NewCmdShow(f, func(o *ShowOptions) error { show = o; return nil }), "abc", "--json"); err != nil {
		t.Fatal(err)
	}
	if show.ID != "abc" || !show.JSON {
		t.Fatalf("show abc --json: %+v", show)
	}
	var del *DeleteOptions
	if err := cmdtest.Run(NewCmdDelete(f, func(o *DeleteOptions) error { del = o; return nil }), "abc"); err != nil {
		t.Fatal(err)
	}
	if del.ID != "abc" {
		t.Fatalf("delete abc: %+v", del)
	}
}

func TestBadArgumentsAreRefused(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	never := func(t *testing.T) func(any) error {
		return func(any) error { t.Fatal("ran despite bad arguments"); return nil }
	}
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"list takes no argument", func() error {
			return cmdtest.Run(NewCmdList(f, func(o *ListOptions) error { return never(t)(o) }), "x")
		}, "unknown command"},
		{"show needs an ID", func() error {
			return cmdtest.Run(NewCmdShow(f, func(o *ShowOptions) error { return never(t)(o) }))
		}, "accepts 1 arg"},
		{"delete takes one ID", func() error {
			return cmdtest.Run(NewCmdDelete(f, func(o *DeleteOptions) error { return never(t)(o) }), "a", "b")
		}, "accepts 1 arg"},
		{"an unknown flag", func() error {
			return cmdtest.Run(NewCmdList(f, func(o *ListOptions) error { return never(t)(o) }), "--newest")
		}, "unknown flag: --newest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.run(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// store makes a session store with one session in the working folder and one
// elsewhere, and returns the Factory whose configuration points at it.
func store(t *testing.T) (f *cmdutil.Factory, st *session.Store, here, there session.Meta) {
	t.Helper()
	f, _, _ = cmdtest.Factory(t)
	home, _ := f.HomeDir()
	wd, _ := f.Getwd()
	st = session.NewStore(filepath.Join(home, "sessions"))
	mk := func(cwd, title string, msgs ...llm.Message) session.Meta {
		l, err := st.Create(session.Meta{Cwd: cwd, Model: "albert-large", Title: title})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Append(msgs...); err != nil {
			t.Fatal(err)
		}
		m := l.Meta()
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		return m
	}
	here = mk(wd, "fix the test",
		llm.Message{Role: llm.RoleUser, Content: "fix the test"},
		llm.Message{Role: llm.RoleAssistant, Reasoning: " look first ", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a.go"}`}}},
		llm.Message{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "no such file", IsError: true},
		llm.Message{Role: llm.RoleAssistant, Content: "done\n"})
	there = mk(t.TempDir(), "elsewhere", llm.Message{Role: llm.RoleUser, Content: "elsewhere"})
	return f, st, here, there
}

func TestListShowsThisFoldersSessionsUnlessAll(t *testing.T) {
	f, _, here, there := store(t)
	out := f.IO.Out.(interface{ String() string })
	if err := cmdtest.Run(NewCmdList(f, nil)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "TITLE") ||
		!strings.HasPrefix(lines[1], here.ID) || !strings.Contains(lines[1], "4") || !strings.HasSuffix(lines[1], "albert-large  fix the test") {
		t.Fatalf("list:\n%s", out.String())
	}

	f.IO.Out.(interface{ Reset() }).Reset()
	if err := cmdtest.Run(NewCmdList(f, nil), "--all", "--json"); err != nil {
		t.Fatal(err)
	}
	var metas []session.Meta
	if err := json.Unmarshal([]byte(out.String()), &metas); err != nil {
		t.Fatalf("--json: %v\n%s", err, out.String())
	}
	if len(metas) != 2 || metas[0].ID != there.ID || metas[1].ID != here.ID {
		t.Fatalf("--all, newest first: %+v", metas)
	}
}

func TestListJSONOfNothingIsAnEmptyArray(t *testing.T) {
	f, stdout, _ := cmdtest.Factory(t)
	if err := cmdtest.Run(NewCmdList(f, nil), "--json"); err != nil {
		t.Fatal(err)
	}
	if stdout.String() != "[]\n" {
		t.Fatalf("%q", stdout.String())
	}
}

func TestShowPrintsEachMessageWithItsRole(t *testing.T) {
	f, _, here, _ := store(t)
	out := f.IO.Out.(interface{ String() string })
	if err := cmdtest.Run(NewCmdShow(f, nil), here.ID); err != nil {
		t.Fatal(err)
	}
	want := "── user\nfix the test\n\n" +
		"── assistant\n[reasoning] look first\n→ read_file {\"path\":\"a.go\"}\n\n" +
		"── result of read_file (error)\nno such file\n\n" +
		"── assistant\ndone\n\n"
	head, body, _ := strings.Cut(out.String(), "\n\n")
	if !strings.HasPrefix(head, "session "+here.ID) || !strings.Contains(head, "model albert-large") || body != want {
		t.Fatalf("show:\n%s", out.String())
	}
}

func TestShowJSONIsOneMessagePerLine(t *testing.T) {
	f, _, here, _ := store(t)
	out := f.IO.Out.(interface{ String() string })
	if err := cmdtest.Run(NewCmdShow(f, nil), here.ID, "--json"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var m llm.Message
	if len(lines) != 4 || json.Unmarshal([]byte(lines[2]), &m) != nil || m.ToolName != "read_file" || !m.IsError {
		t.Fatalf("show --json:\n%s", out.String())
	}
}

func TestAnUnknownSessionIsAUsageError(t *testing.T) {
	f, _, _, _ := store(t)
	for name, cmd := range map[string]func() error{
		"show":   func() error { return cmdtest.Run(NewCmdShow(f, nil), "nonesuch") },
		"delete": func() error { return cmdtest.Run(NewCmdDelete(f, nil), "nonesuch") },
	} {
		var exit *cmdutil.Exit
		if err := cmd(); !errors.As(err, &exit) || exit.Code != cmdutil.ExitUsage || !strings.Contains(err.Error(), "nonesuch") {
			t.Fatalf("%s nonesuch: %v", name, err)
		}
	}
}

func TestDeleteRemovesTheSessionByPrefix(t *testing.T) {
	f, st, here, there := store(t)
	out := f.IO.Out.(interface{ String() string })
	if err := cmdtest.Run(NewCmdDelete(f, nil), here.ID[:len(here.ID)-2]); err != nil {
		t.Fatal(err)
	}
	if out.String() != "deleted "+here.ID+"\n" {
		t.Fatalf("%q", out.String())
	}
	metas, err := st.List(session.Filter{})
	if err != nil || len(metas) != 1 || metas[0].ID != there.ID {
		t.Fatalf("left: %+v, %v", metas, err)
	}
}

// TestShowStripsEscapes: a hostile model's answer saved in a session reaches the
// terminal without its escape sequences (OSC 52 writes the clipboard, CSI clears
// the screen) or control characters; --json escapes them as JSON does.
func TestShowStripsEscapes(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	home, _ := f.HomeDir()
	wd, _ := f.Getwd()
	st := session.NewStore(filepath.Join(home, "sessions"))
	l, err := st.Create(session.Meta{Cwd: wd, Model: "albert-large", Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	evil := "ok\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J\u009b31m\rdone"
	if err := l.Append(llm.Message{Role: llm.RoleAssistant, Content: evil, Reasoning: "\x1b]8;;http://x\x07r",
		ToolCalls: []llm.ToolCall{{ID: "c", Name: "bash\x1b[H", Arguments: "{\"command\":\"\x1b]52;c;eA==\x07ls\"}"}}}); err != nil {
		t.Fatal(err)
	}
	id := l.Meta().ID
	l.Close()
	out := f.IO.Out.(interface {
		String() string
		Reset()
	})
	if err := cmdtest.Run(NewCmdShow(f, nil), id); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.ContainsAny(s, "\x1b\x07\r\u009b") || !strings.Contains(s, "\nok") || !strings.Contains(s, "done\n") ||
		!strings.Contains(s, "[reasoning] r") || !strings.Contains(s, "→ bash {\"command\":\"ls\"}") {
		t.Fatalf("show printed escapes or lost the text: %q", s)
	}
	out.Reset()
	if err := cmdtest.Run(NewCmdShow(f, nil), id, "--json"); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.Contains(s, "\x1b") || !strings.Contains(s, `\u001b]52`) {
		t.Fatalf("--json printed raw escapes or dropped them: %q", s)
	}
}
