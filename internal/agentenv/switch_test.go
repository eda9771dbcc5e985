package agentenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/profile"
	"github.com/etalab-ia/albert-code/internal/tool"
)

func loadForSwitch(t *testing.T) *Env {
	t.Helper()
	root := t.TempDir()
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": root, "ALBERT_CODE_HOME": filepath.Join(root, ".albert-code"), "ALBERT_API_KEY": "k"}
	e, err := Load(Options{WorkDir: work, LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// WithProfile and WithModel return changed copies and leave the original as it was,
// so a face can fall back to it.
func TestWithProfileAndWithModelCopy(t *testing.T) {
	e := loadForSwitch(t)
	p, err := e.WithProfile(profile.Plan)
	if err != nil || p.Profile.Name != profile.Plan || e.Profile.Name != profile.Default {
		t.Fatalf("WithProfile(plan): %v; copy %q, original %q", err, p.Profile.Name, e.Profile.Name)
	}
	if _, err := e.WithProfile(profile.Explore); err == nil {
		t.Error("a sub-agent profile was accepted")
	}
	m, err := p.WithModel("Qwen/Qwen3.6-27B")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := m.ModelFor()
	if err != nil || got.Name != "qwen" || m.Profile.Name != profile.Plan {
		t.Fatalf("WithModel by wire name: %q, %v, profile %q", got.Name, err, m.Profile.Name)
	}
	if orig, _, _ := e.ModelFor(); orig.Name != "mistral-medium" {
		t.Errorf("the original's model changed to %q", orig.Name)
	}
	if _, err := e.WithModel("nope"); err == nil {
		t.Error("an unknown model was accepted")
	}
}

// A model chosen with WithModel wins over the profile's own model.
func TestWithModelWinsOverTheProfileModel(t *testing.T) {
	e := loadForSwitch(t)
	e.Profile.Model = "deepseek-flash"
	if m, _, _ := e.ModelFor(); m.Name != "deepseek-flash" {
		t.Fatalf("profile model not used: %q", m.Name)
	}
	c, err := e.WithModel("qwen")
	if err != nil {
		t.Fatal(err)
	}
	if m, _, _ := c.ModelFor(); m.Name != "qwen" {
		t.Fatalf("WithModel lost to the profile: %q", m.Name)
	}
}

// An override replaces the built-in of its name, and adds nothing the profile left out.
func TestToolOverridesReplaceBuiltinsTheProfileKeeps(t *testing.T) {
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{Name: "read", Arguments: `{"path":"x.txt"}`}}},
		{Text: []string{"ok"}},
	}})
	e := loadForSwitch(t)
	e.Config.Providers[0].BaseURL = srv.URL()
	plan, err := e.WithProfile(profile.Plan)
	if err != nil {
		t.Fatal(err)
	}
	fake := func(name string) tool.Tool {
		return tool.New(tool.Def[struct {
			Path string `json:"path"`
		}]{
			Info: tool.Info{Name: name, ReadOnly: true},
			Run: func(context.Context, tool.Call, struct {
				Path string `json:"path"`
			}) (tool.Result, error) {
				return tool.Text("from the editor"), nil
			},
		})
	}
	run, err := plan.NewRun(RunOptions{ToolOverrides: []tool.Tool{fake("read"), fake("write")}})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if res := run.Agent.Run(context.Background(), "read x", func(agent.Event) {}); res.Stop != agent.StopEndTurn {
		t.Fatalf("stop %q, %v", res.Stop, res.Err)
	}
	reqs := srv.Requests()
	if !strings.Contains(reqs[1].Body, "from the editor") {
		t.Error("the override did not run")
	}
	if strings.Contains(reqs[0].Body, `"name":"write"`) {
		t.Error("an override added write, which the plan profile leaves out")
	}
}
