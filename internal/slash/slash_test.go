package slash

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/llm"
)

// fullHost implements every capability and records what commands did.
type fullHost struct {
	face    Face
	shown   []string
	calls   []string
	picked  string
	failSet error
}

func (h *fullHost) Face() Face            { return h.face }
func (h *fullHost) Show(md string)        { h.shown = append(h.shown, md) }
func (h *fullHost) Quit()                 { h.calls = append(h.calls, "quit") }
func (h *fullHost) Pick(what string)      { h.picked = what }
func (h *fullHost) KeyHelp() string       { return "- `Esc`: interrupt\n" }
func (h *fullHost) CopyLastAnswer() error { h.calls = append(h.calls, "copy"); return nil }
func (h *fullHost) Clear(context.Context) error {
	h.calls = append(h.calls, "clear")
	return nil
}
func (h *fullHost) Compact(_ context.Context, instr string) error {
	h.calls = append(h.calls, "compact:"+instr)
	return nil
}
func (h *fullHost) Reload(context.Context) error { h.calls = append(h.calls, "reload"); return nil }
func (h *fullHost) Resume(_ context.Context, id string) error {
	h.calls = append(h.calls, "resume:"+id)
	return nil
}
func (h *fullHost) Models() []Choice {
	return []Choice{{Name: "small", Current: true}, {Name: "large", Description: "slow"}}
}
func (h *fullHost) SetModel(_ context.Context, n string) error {
	h.calls = append(h.calls, "model:"+n)
	return h.failSet
}
func (h *fullHost) Profiles() []Choice {
	return []Choice{{Name: "default", Current: true}, {Name: "plan"}}
}
func (h *fullHost) SetProfile(_ context.Context, n string) error {
	h.calls = append(h.calls, "agent:"+n)
	return nil
}
func (h *fullHost) ConfigText() (string, error) { return "model = \"small\"\n", nil }
func (h *fullHost) Status() Status {
	return Status{SessionID: "abc123", Model: "small", Profile: "plan", ContextWindow: 128000,
		Stats: agent.Stats{ContextTokens: 12800, Cost: 0.0123, Usage: llm.Usage{InputTokens: 3500, OutputTokens: 950}}}
}

// bareHost can only show text, like a face that offers nothing else.
type bareHost struct{ shown []string }

func (h *bareHost) Face() Face     { return FaceACP }
func (h *bareHost) Show(md string) { h.shown = append(h.shown, md) }

func TestParse(t *testing.T) {
	t.Parallel()
	r := Default()
	tests := []struct {
		line, name, args string
	}{
		{"/help", "help", ""},
		{"  /compact keep the test names  ", "compact", "keep the test names"},
		{"/COMPACT", "compact", ""},
		{"/continue", "resume", ""},
		{"/quit", "exit", ""},
		{"/compact\tfocus on bugs", "compact", "focus on bugs"},
		{"/model large", "model", "large"},
	}
	for _, tt := range tests {
		call, err := r.Parse(FaceTUI, tt.line)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.line, err)
		}
		if call.Command.Name != tt.name || call.Args != tt.args {
			t.Errorf("Parse(%q) = /%s %q, want /%s %q", tt.line, call.Command.Name, call.Args, tt.name, tt.args)
		}
	}
}

func TestParseNotCommand(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"hello", "/", "/ x", "//comment", "", "x /help"} {
		if _, err := Default().Parse(FaceTUI, line); !errors.Is(err, ErrNotCommand) {
			t.Errorf("Parse(%q) error = %v, want ErrNotCommand", line, err)
		}
	}
}

func TestUnknownSuggestsNearest(t *testing.T) {
	t.Parallel()
	r := Default()
	tests := []struct {
		line string
		want []string
	}{
		{"/compcat", []string{"compact"}},
		{"/stat", []string{"status"}},
		{"/cler", []string{"clear"}},
		{"/zzzzzz", nil},
	}
	for _, tt := range tests {
		_, err := r.Parse(FaceTUI, tt.line)
		var unk *UnknownError
		if !errors.As(err, &unk) {
			t.Fatalf("Parse(%q) error = %v, want *UnknownError", tt.line, err)
		}
		if strings.Join(unk.Nearest, ",") != strings.Join(tt.want, ",") {
			t.Errorf("Parse(%q) nearest = %v, want %v", tt.line, unk.Nearest, tt.want)
		}
		if !strings.Contains(err.Error(), "/help") {
			t.Errorf("error %q does not point at /help", err)
		}
	}
}

func TestFaceFilter(t *testing.T) {
	t.Parallel()
	r := Default()
	// /exit and /copy make no sense in an editor: ACP must neither list nor run them.
	if _, err := r.Parse(FaceACP, "/exit"); err == nil {
		t.Fatal("/exit parsed in the ACP face")
	}
	for _, c := range r.Commands(FaceACP) {
		if c.Name == "exit" || c.Name == "copy" || c.Name == "resume" {
			t.Errorf("ACP lists /%s", c.Name)
		}
	}
	names := map[string]bool{}
	for _, c := range r.Commands(FaceTUI) {
		names[c.Name] = true
	}
	for _, n := range []string{"help", "model", "agent", "clear", "compact", "resume", "config", "reload", "status", "cost", "copy", "exit"} {
		if !names[n] {
			t.Errorf("TUI lacks /%s", n)
		}
	}
}

func TestComplete(t *testing.T) {
	t.Parallel()
	r := Default()
	var got []string
	for _, c := range r.Complete(FaceTUI, "/co") {
		got = append(got, c.Name)
	}
	// /resume comes through its alias /continue.
	if want := "compact,config,copy,cost,resume"; strings.Join(got, ",") != want {
		t.Errorf("Complete(/co) = %v, want %s", got, want)
	}
	if n := len(r.Complete(FaceTUI, "/")); n != len(r.Commands(FaceTUI)) {
		t.Errorf("Complete(/) = %d commands, want all %d", n, len(r.Commands(FaceTUI)))
	}
}

func TestRegisterRejectsClashes(t *testing.T) {
	t.Parallel()
	r := Default()
	noop := func(context.Context, Host, string) error { return nil }
	if err := r.Register(Command{Name: "quit", Run: noop}); err == nil {
		t.Error("registering /quit over the alias of /exit succeeded")
	}
	if err := r.Register(Command{Name: "Skills", Run: noop}); err == nil {
		t.Error("registering an upper-case name succeeded")
	}
	if err := r.Register(Command{Name: "skills", Faces: bothFaces}); err == nil {
		t.Error("registering a command without Run succeeded")
	}
	if err := r.Register(Command{Name: "skills", Description: "List the skills", Faces: bothFaces, Run: noop}); err != nil {
		t.Fatal(err)
	}
	h := &fullHost{face: FaceACP}
	if err := r.Run(t.Context(), h, "/help"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.shown[0], "/skills") {
		t.Errorf("/help does not list a command registered later:\n%s", h.shown[0])
	}
}

func TestRunCommands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line      string
		wantCall  string
		wantShown string
		wantPick  string
	}{
		{line: "/clear", wantCall: "clear"},
		{line: "/compact keep the plan", wantCall: "compact:keep the plan"},
		{line: "/reload", wantCall: "reload", wantShown: "reloaded"},
		{line: "/model large", wantCall: "model:large", wantShown: "`large`"},
		{line: "/agent plan", wantCall: "agent:plan"},
		{line: "/model", wantPick: "model"},
		{line: "/agent", wantPick: "agent"},
		{line: "/resume", wantPick: "session"},
		{line: "/resume 1a2b", wantCall: "resume:1a2b"},
		{line: "/copy", wantCall: "copy"},
		{line: "/exit", wantCall: "quit"},
		{line: "/config", wantShown: "model = \"small\""},
		{line: "/status", wantShown: "12.8k / 128k (10%)"},
		{line: "/cost", wantShown: "3.5k tokens in, 950 out: **0.0123 €**"},
		{line: "/help", wantShown: "`/compact [instructions]`"},
	}
	for _, tt := range tests {
		h := &fullHost{face: FaceTUI}
		if err := Default().Run(t.Context(), h, tt.line); err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		if tt.wantCall != "" && (len(h.calls) != 1 || h.calls[0] != tt.wantCall) {
			t.Errorf("%s: calls %v, want [%s]", tt.line, h.calls, tt.wantCall)
		}
		if tt.wantPick != h.picked {
			t.Errorf("%s: picked %q, want %q", tt.line, h.picked, tt.wantPick)
		}
		if tt.wantShown != "" && !strings.Contains(strings.Join(h.shown, "\n"), tt.wantShown) {
			t.Errorf("%s: shown %q, want it to contain %q", tt.line, h.shown, tt.wantShown)
		}
	}
}

func TestHelpHasKeysOnlyWhenTheFaceHasThem(t *testing.T) {
	t.Parallel()
	full := &fullHost{face: FaceTUI}
	_ = Default().Run(t.Context(), full, "/help")
	if !strings.Contains(full.shown[0], "## Keys") || !strings.Contains(full.shown[0], "`/continue`") {
		t.Errorf("TUI help lacks keys or aliases:\n%s", full.shown[0])
	}
	bare := &bareHost{}
	_ = Default().Run(t.Context(), bare, "/help")
	if strings.Contains(bare.shown[0], "## Keys") || strings.Contains(bare.shown[0], "/exit") {
		t.Errorf("ACP help shows keys or TUI-only commands:\n%s", bare.shown[0])
	}
}

func TestMissingCapabilityIsReported(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"/clear", "/compact", "/model", "/agent", "/reload", "/status", "/cost", "/config", "/quota", "/rpm"} {
		err := Default().Run(t.Context(), &bareHost{}, line)
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s on a bare host: %v, want ErrUnavailable", line, err)
		}
	}
}

func TestListWithoutPicker(t *testing.T) {
	t.Parallel()
	// An ACP host that switches models but has no picker gets a list.
	h := &switchOnly{bareHost: bareHost{}}
	if err := Default().Run(t.Context(), h, "/model"); err != nil {
		t.Fatal(err)
	}
	if got := h.shown[0]; !strings.Contains(got, "`small` (current)") || !strings.Contains(got, "`large`: slow") {
		t.Errorf("model list:\n%s", got)
	}
}

func TestSetErrorIsReturned(t *testing.T) {
	t.Parallel()
	h := &fullHost{face: FaceTUI, failSet: errors.New(`unknown model "huge"`)}
	err := Default().Run(t.Context(), h, "/model huge")
	if err == nil || !strings.Contains(err.Error(), "huge") {
		t.Errorf("error = %v", err)
	}
	if len(h.shown) != 0 {
		t.Errorf("a failed switch showed %q", h.shown)
	}
}

type switchOnly struct{ bareHost }

func (h *switchOnly) Models() []Choice                       { return (&fullHost{}).Models() }
func (h *switchOnly) SetModel(context.Context, string) error { return nil }

func TestCompactCount(t *testing.T) {
	t.Parallel()
	tests := map[int64]string{0: "0", 950: "950", 1000: "1k", 3500: "3.5k", 128000: "128k", 2_500_000: "2.5M", 12_000_000: "12M", 45_678: "45.7k"}
	for n, want := range tests {
		if got := CompactCount(n); got != want {
			t.Errorf("CompactCount(%d) = %q, want %q", n, got, want)
		}
	}
	if got := ContextGauge(500, 0); got != "500 (window unknown)" {
		t.Errorf("ContextGauge with no window = %q", got)
	}
}
