package slash

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/config"
)

// configHost is a full host whose configuration is read from real files in a
// temporary home, XDG folder and project.
type configHost struct {
	fullHost
	global, project string
	load            func() (*config.Config, error)
	dialogs         int
}

func (h *configHost) EditableConfig() (*config.Config, error) { return h.load() }
func (h *configHost) OpenConfigEditor()                       { h.dialogs++ }

func newConfigHost(t *testing.T) *configHost {
	t.Helper()
	root := t.TempDir()
	work := filepath.Join(root, "repo")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": filepath.Join(root, "home"), "ALBERT_CODE_HOME": filepath.Join(root, "app"),
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg")}
	return &configHost{fullHost: fullHost{face: FaceTUI},
		global: filepath.Join(root, "xdg", "albert-code", "config.toml"), project: filepath.Join(work, ".albert-code.toml"),
		load: func() (*config.Config, error) {
			return config.Load(config.Options{WorkDir: work, LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
		}}
}

func (h *configHost) run(t *testing.T, line string) error {
	t.Helper()
	h.shown, h.calls = nil, nil
	return Default().Run(t.Context(), h, line)
}

func (h *configHost) said() string { return strings.Join(h.shown, "\n") }

func fileText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

// /config set saves in the chosen file and puts the value to work as far as the
// face can: the model and profile switch now, others reload the session, the
// sandbox waits for a restart. Each confirmation says which happened.
func TestConfigSetSavesAndSaysWhenItApplies(t *testing.T) {
	t.Parallel()
	h := newConfigHost(t)
	tests := []struct {
		line, call, file, inFile string
		said                     []string
	}{
		{"/config set model qwen", "model:qwen", h.global, `model = "qwen"`,
			[]string{"Saved `model = qwen` in `" + h.global + "` (global config).", "This session uses `qwen` now."}},
		{"/config set agent plan --project", "agent:plan", h.project, `agent = "plan"`,
			[]string{"(project config)", "This session uses `plan` now."}},
		{"/config set compaction.threshold 0.6", "reload", h.global, "[compaction]\nthreshold = 0.6",
			[]string{"The session is reopened with it"}},
		{"/config set --project web_search.base_url \"\"", "reload", h.project, `base_url = ""`,
			[]string{"`web_search.base_url = \"\"`"}},
		{"/config set sandbox.mode OFF", "", h.global, "[sandbox]\nmode = \"off\"",
			[]string{"It applies when albert-code starts again."}},
	}
	for _, tt := range tests {
		if err := h.run(t, tt.line); err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		if got := strings.Join(h.calls, ","); got != tt.call {
			t.Errorf("%s: calls %q, want %q", tt.line, got, tt.call)
		}
		if !strings.Contains(fileText(t, tt.file), tt.inFile) {
			t.Errorf("%s: %s lacks %q:\n%s", tt.line, tt.file, tt.inFile, fileText(t, tt.file))
		}
		for _, w := range tt.said {
			if !strings.Contains(h.said(), w) {
				t.Errorf("%s: said %q, want %q", tt.line, h.said(), w)
			}
		}
	}
	// The project's agent now wins over a global one: the confirmation says so.
	if err := h.run(t, "/config set agent default"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.said(), "Note: `"+h.project+":1` also sets agent and wins over this file") {
		t.Errorf("no word of the project file winning: %s", h.said())
	}
}

func TestConfigSetRefusals(t *testing.T) {
	t.Parallel()
	h := newConfigHost(t)
	tests := map[string][]string{
		"/config set sandbox.mode off --project":    {"sandbox.mode is read from your global config only", "--global"},
		"/config set agent nosuch":                  {`unknown profile "nosuch"`, "default, plan"},
		"/config set compaction.threshold 3":        {"compaction.threshold", "a fraction above 0 and at most 1"},
		"/config set modle qwen":                    {`did you mean "model"?`},
		"/config set model":                         {"no value", "/config unset model"},
		"/config set model qwen --global --project": {"once"},
		"/config frobnicate":                        {"`set KEY VALUE [--global|--project]`"},
		"/config set model 'qwen":                   {"quote is not closed"},
		"/config unset agent":                       {"neither your global nor the project's config file sets it", "default"},
	}
	for line, want := range tests {
		err := h.run(t, line)
		if err == nil {
			t.Errorf("%s accepted", line)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", line, err, w)
			}
		}
	}
	if len(h.calls) != 0 || fileText(t, h.global) != "" || fileText(t, h.project) != "" {
		t.Errorf("a refusal changed something: calls %v, global %q, project %q", h.calls, fileText(t, h.global), fileText(t, h.project))
	}
}

func TestConfigUnsetFindsTheFileThatSetsIt(t *testing.T) {
	t.Parallel()
	h := newConfigHost(t)
	if err := os.WriteFile(h.project, []byte("# team settings\nmodel = \"qwen\"\nauto_continue = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.run(t, "/config unset auto_continue"); err != nil {
		t.Fatal(err)
	}
	if got := fileText(t, h.project); got != "# team settings\nmodel = \"qwen\"\n" {
		t.Fatalf("project file:\n%s", got)
	}
	if !strings.Contains(h.said(), "Removed `auto_continue` from `"+h.project+"` (project config).") || h.calls[0] != "reload" {
		t.Errorf("said %q, calls %v", h.said(), h.calls)
	}
	// Without the project's model, the default applies, and the session takes it.
	if err := h.run(t, "/config unset model"); err != nil {
		t.Fatal(err)
	}
	if strings.Join(h.calls, ",") != "model:mistral-medium" || !strings.Contains(h.said(), "This session uses `mistral-medium` now.") {
		t.Errorf("said %q, calls %v", h.said(), h.calls)
	}
}

// /model NAME stays with the session and says how to keep it; --save writes the
// global default as well.
func TestModelSave(t *testing.T) {
	t.Parallel()
	h := newConfigHost(t)
	if err := h.run(t, "/model qwen"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.said(), "model: `qwen` for this session (`/model qwen --save` makes it the default)") || fileText(t, h.global) != "" {
		t.Fatalf("session-only switch: said %q, file %q", h.said(), fileText(t, h.global))
	}
	if err := h.run(t, "/model --save deepseek-flash"); err != nil {
		t.Fatal(err)
	}
	if fileText(t, h.global) != "model = \"deepseek-flash\"\n" || strings.Join(h.calls, ",") != "model:deepseek-flash" {
		t.Fatalf("file %q, calls %v", fileText(t, h.global), h.calls)
	}
	if !strings.Contains(h.said(), "model: `deepseek-flash` for this session, and saved as the default in `"+h.global+"`.") {
		t.Errorf("said %q", h.said())
	}
	if err := h.run(t, "/model nosuch --save"); err == nil || !strings.Contains(err.Error(), `unknown model "nosuch"`) || len(h.calls) != 0 {
		t.Errorf("unknown model: %v, calls %v", err, h.calls)
	}
	if err := (&bareHostWithModels{fullHost{face: FaceTUI}}).run(t, "/model qwen --save"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("--save where nothing can be saved: %v", err)
	}
}

type bareHostWithModels struct{ fullHost }

func (h *bareHostWithModels) run(t *testing.T, line string) error {
	return Default().Run(t.Context(), h, line)
}

func TestConfigWithoutArgumentsOpensTheEditorWhereThereIsOne(t *testing.T) {
	t.Parallel()
	h := newConfigHost(t)
	if err := h.run(t, "/config"); err != nil || h.dialogs != 1 || len(h.shown) != 0 {
		t.Fatalf("err %v, dialogs %d, shown %v", err, h.dialogs, h.shown)
	}
	if err := h.run(t, "/config show"); err != nil || !strings.Contains(h.said(), `model = "small"`) {
		t.Fatalf("/config show: %v %q", err, h.said())
	}
	// A face without the editor shows the text, and cannot save.
	f := &fullHost{face: FaceACP}
	if err := Default().Run(t.Context(), f, "/config"); err != nil || !strings.Contains(strings.Join(f.shown, ""), `model = "small"`) {
		t.Fatalf("/config in a face without an editor: %v %v", err, f.shown)
	}
	if err := Default().Run(t.Context(), f, "/config set model qwen"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("/config set without an editor: %v", err)
	}
}
