package dialog

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

const goFile = "package a\n\nfunc f() {\n\tx := 1\n\ty := 2\n\treturn\n}\n"

func files(m map[string]string) func(string) (string, error) {
	return func(p string) (string, error) {
		if s, ok := m[p]; ok {
			return s, nil
		}
		return "", errors.New("not found")
	}
}

func approvalView(t *testing.T, name string, params any, read func(string) (string, error)) string {
	t.Helper()
	args, _ := json.Marshal(params)
	a := NewApproval(theme, agent.ToolEvent{Name: name, Arguments: args}).WithFiles(read)
	return ansi.Strip(a.View(100, 30))
}

// The edit preview is the diff of the file, as the view after the call shows it:
// a hunk header with line numbers, the indentation and the lines around.
func TestEditPreviewIsTheFileDiff(t *testing.T) {
	t.Parallel()
	v := approvalView(t, "edit", builtin.EditParams{Path: "a.go", OldString: "y := 2", NewString: "y := 3"}, files(map[string]string{"a.go": goFile}))
	for _, want := range []string{"@@ -2,6 +2,6 @@", "\tx := 1", "-\ty := 2", "+\ty := 3", " func f() {"} {
		if !strings.Contains(v, strings.ReplaceAll(want, "\t", "    ")) && !strings.Contains(v, want) {
			t.Errorf("preview lacks %q:\n%s", want, v)
		}
	}
}

// When the tool will refuse the edit, or the file cannot be read, the preview shows
// what the call asks, as before.
func TestEditPreviewFallsBackToTheArguments(t *testing.T) {
	t.Parallel()
	for name, read := range map[string]func(string) (string, error){
		"absent old_string": files(map[string]string{"a.go": goFile}),
		"unreadable":        files(nil),
	} {
		v := approvalView(t, "edit", builtin.EditParams{Path: "a.go", OldString: "z := 9", NewString: "z := 8"}, read)
		if !strings.Contains(v, "@@ -1 +1 @@") || !strings.Contains(v, "-z := 9") {
			t.Errorf("%s: preview:\n%s", name, v)
		}
	}
}

// A write over an existing file is a diff against it, not a new file.
func TestWritePreviewDiffsAnExistingFile(t *testing.T) {
	t.Parallel()
	v := approvalView(t, "write", builtin.WriteParams{Path: "a.go", Content: strings.Replace(goFile, "x := 1", "x := 7", 1)}, files(map[string]string{"a.go": goFile}))
	if !strings.Contains(v, "--- a/a.go") || !strings.Contains(v, "+") || strings.Contains(v, "/dev/null") {
		t.Errorf("preview:\n%s", v)
	}
}
