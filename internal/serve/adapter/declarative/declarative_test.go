package declarative

import (
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/codex"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

func TestDeclarativeReadsLikeTheBuiltIn(t *testing.T) {
	t.Parallel()
	d, err := LoadFile("../testdata/codex-like.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"codex.jsonl", "codex-failed.jsonl"} {
		out := adaptertest.Transcript(t, name)
		// A continued run: a fresh one is ephemeral, and the built-in then hides its
		// thread id, which resumes nothing.
		got, want := d.ParseOutput(out, &backend.Request{Continue: true}), (&codex.Adapter{}).ParseOutput(out, &backend.Request{Continue: true})
		// The file does not say where the stop reason is, nor how to classify an error.
		want.StopReason, want.ErrorKind = "", ""
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
		}
		if g, w := adaptertest.Deltas(adaptertest.StreamAll(d, &backend.Request{}, out)), adaptertest.Deltas(adaptertest.StreamAll(&codex.Adapter{}, &backend.Request{}, out)); !slices.Equal(g, w) {
			t.Errorf("%s: deltas %q, want %q", name, g, w)
		}
	}
}

func TestDeclarativeArgv(t *testing.T) {
	t.Parallel()
	d, err := LoadFile("../testdata/codex-like.toml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		req  backend.Request
		want string
	}{
		{backend.Request{}, "codex exec --json --skip-git-repo-check --ephemeral -"},
		{backend.Request{Continue: true}, "codex exec resume --last --json --skip-git-repo-check -"},
		{backend.Request{Continue: true, Resume: "t-1", Model: "o4", Thinking: "high", NoTools: true, ExtraArgs: []string{"-c", "x=1"}},
			`codex exec resume t-1 --json --skip-git-repo-check -c sandbox_mode="read-only" -c features.shell_tool=false -c web_search=disabled --model o4 -c model_reasoning_effort=high -c x=1 -`},
		{backend.Request{NoTools: true}, `codex exec --json --skip-git-repo-check -c sandbox_mode="read-only" -c features.shell_tool=false -c web_search=disabled --ephemeral -`},
	}
	for _, tc := range tests {
		if err := cli.Validate(d, &tc.req); err != nil {
			t.Errorf("%+v refused: %v", tc.req, err)
		}
		argv, err := d.BuildArgv(&tc.req)
		if got := strings.Join(argv, " "); err != nil || got != tc.want {
			t.Errorf("%+v:\n got %s (%v)\nwant %s", tc.req, got, err, tc.want)
		}
	}
	env := d.Env(&backend.Request{Model: "o4", Env: map[string]string{"X": "1"}}, []string{"CODEX_MODEL_HINT=old", "PATH=/bin"})
	if got := strings.Join(env, " "); got != "PATH=/bin CODEX_MODEL_HINT=o4 X=1" {
		t.Errorf("env %s", got)
	}
	err = cli.Validate(d, &backend.Request{SystemPrompt: "x", ToolsAllowlist: []string{"a"}})
	if err == nil || !strings.Contains(err.Error(), "add {system_prompt}, {tools} to argv in ../testdata/codex-like.toml") {
		t.Errorf("unplaced fields: %v", err)
	}
}

func TestDeclarativePromptAsArgument(t *testing.T) {
	t.Parallel()
	d, err := LoadFile("../testdata/echo-agent.toml")
	if err != nil {
		t.Fatal(err)
	}
	req := &backend.Request{Prompt: "-n hello {world}"}
	argv, _ := d.BuildArgv(req)
	if !slices.Equal(argv, []string{"echo", "-n hello {world}"}) || cli.Stdin(d, req) != nil {
		t.Errorf("argv %q", argv)
	}
	if got := d.ParseOutput([]byte("  the answer\n"), req); got.Text != "the answer" {
		t.Errorf("text %q", got.Text)
	}
	if s := cli.NewStream(d, req); !reflect.DeepEqual(s.Line([]byte("a line")), []backend.Event{{Kind: backend.EventDelta, Text: "a line\n"}}) {
		t.Error("text output does not stream line by line")
	}
	var _ io.Reader = cli.Stdin(&claude.Adapter{}, req) // the built-ins read stdin
}

func TestDeclarativeFileErrors(t *testing.T) {
	t.Parallel()
	const ok = "name = \"x\"\nargv = [\"x\"]\n"
	tests := []struct {
		name, toml string
		key, has   string
	}{
		{"unknown key", ok + "modles = [\"a\"]\n", "modles", "unknown key (line 3)"},
		{"unknown nested key", ok + "[output]\nfromat = \"text\"\n", "output.fromat", "unknown key"},
		{"wrong type", ok + "models = \"a\"\n", "models", "line 3 column 10: this is a TOML string: want a list of strings"},
		{"bad name", "name = \"My Agent\"\nargv = [\"x\"]\n", "name", "lower-case"},
		{"built-in name", "name = \"claude\"\nargv = [\"x\"]\n", "name", "built-in"},
		{"no argv", "name = \"x\"\n", "argv", "missing"},
		{"unknown placeholder", "name = \"x\"\nargv = [\"x\", \"--model={modle}\"]\n", "argv[1]", "unknown placeholder {modle}"},
		{"unclosed brace", "name = \"x\"\nargv = [\"x\", \"{model\"]\n", "argv[1]", "unclosed"},
		{"condition outside a group", "name = \"x\"\nargv = [\"x\", \"{continue}\"]\n", "argv[1]", "unknown placeholder {continue}"},
		{"condition alone", "name = \"x\"\nargv = [\"x\", [\"{continue}\"]]\n", "argv[1]", "no arguments"},
		{"number in argv", "name = \"x\"\nargv = [\"x\", 3]\n", "argv[1]", "want a string or a list"},
		{"binary missing", "name = \"x\"\nargv = [\"{binary}\"]\n", "binary", "set binary"},
		{"prompt argument without placeholder", ok + "prompt = \"argument\"\n", "argv", "no {prompt}"},
		{"prompt twice", "name = \"x\"\nargv = [\"x\", \"{prompt}\"]\n", "argv", "prompt goes on stdin"},
		{"prompt mode", ok + "prompt = \"file\"\n", "prompt", `want "stdin"`},
		{"format", ok + "[output]\nformat = \"xml\"\n", "output.format", `want "text" or "jsonl"`},
		{"jsonl without text", ok + "[output]\nformat = \"jsonl\"\n", "output.text", "say where the answer is"},
		{"selector on text", ok + "[output.text]\npath = \"a\"\n", "output.text", "only for format"},
		{"selector without path", ok + "[output]\nformat = \"jsonl\"\n[output.text]\njoin = \"\"\n", "output.text", "path missing"},
		{"where not a string", ok + "[output]\nformat = \"jsonl\"\n[output.text]\npath = \"a\"\nwhere = { type = 1 }\n", "output.text", "where.type"},
		{"env placeholder", ok + "[env]\nA = \"{nope}\"\n", "env.A", "unknown placeholder"},
		{"toml syntax", "name = \n", "", "line 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("agents/x.toml", []byte(tc.toml))
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err %v, want a FileError", err)
			}
			if fe.File != "agents/x.toml" || fe.Key != tc.key || !strings.Contains(err.Error(), tc.has) {
				t.Errorf("got %q (key %q), want key %q and %q", err, fe.Key, tc.key, tc.has)
			}
		})
	}
}

// The Codex example takes tools away as the built-in adapter does, fresh, continued
// or resumed (codex exec resume has no --sandbox): the same argv.
func TestDeclarativeCodexNoToolsIsTheBuiltins(t *testing.T) {
	t.Parallel()
	d, err := LoadFile("../testdata/codex-like.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []backend.Request{{NoTools: true}, {NoTools: true, Continue: true}, {NoTools: true, Resume: "t-1", Model: "o4"}} {
		want, err := (&codex.Adapter{}).BuildArgv(&req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.BuildArgv(&req)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%+v:\n got %q (%v)\nwant %q (the built-in's)", req, got, err, want)
		}
	}
}
