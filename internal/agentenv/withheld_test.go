package agentenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/profile"
)

// A tool the profile or the configuration took away is named as such to the model,
// with what would give it back, not as an unknown tool.
func TestWithheldToolsSayWhichRuleTookThemAway(t *testing.T) {
	for _, tc := range []struct {
		name, profile, disabled, call, want string
	}{
		{name: "plan mode", profile: profile.Plan, call: "edit", want: "edit is not available: it is not allowed in plan mode"},
		{name: "disabled_tools", profile: profile.Default, disabled: "bash", call: "bash", want: "bash is not available: disabled_tools (--disabled-tools)"},
		{name: "a made-up tool", profile: profile.Plan, call: "teleport", want: `unknown tool \"teleport\"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
				{ToolCalls: []fakemodel.ToolCall{{Name: tc.call, Arguments: `{}`}}},
				{Text: []string{"ok"}},
			}})
			root := t.TempDir()
			work := filepath.Join(root, "work")
			env := map[string]string{
				"HOME": filepath.Join(root, "home"), "ALBERT_CODE_HOME": filepath.Join(root, "home", ".albert-code"),
				"XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "ALBERT_API_KEY": "k", "ALBERT_CODE_BASE_URL": srv.URL(),
			}
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			ov := config.Overrides{Agent: tc.profile}
			if tc.disabled != "" {
				ov.DisabledTools = []string{tc.disabled}
			}
			e, err := Load(Options{WorkDir: work, Trust: true, Overrides: ov, LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
			if err != nil {
				t.Fatal(err)
			}
			run, err := e.NewRun(RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer run.Close()
			res := run.Agent.Run(context.Background(), "go", func(agent.Event) {})
			if res.Stop != agent.StopEndTurn {
				t.Fatalf("stop = %q, err %v", res.Stop, res.Err)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || !strings.Contains(reqs[1].Body, tc.want) {
				t.Fatalf("the model was not told %q; it made %d requests", tc.want, len(reqs))
			}
		})
	}
}
