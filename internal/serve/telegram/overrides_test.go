package telegram

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOverridesPersistInTheOriginalFormat(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state", "overrides.json")
	o, err := LoadOverrides(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Set(-100123, KeyModel, "Mistral-Large-Instruct-2411"); err != nil {
		t.Fatal(err)
	}
	if err := o.Set(-100123, KeyEffort, "high"); err != nil {
		t.Fatal(err)
	}
	if err := o.Set(7, KeySystemPrompt, "be terse"); err != nil {
		t.Fatal(err)
	}
	if err := o.Set(7, KeySystemPrompt, ""); err != nil { // a reset empties chat 7's bucket
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]map[string]string
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{"-100123": {"model": "Mistral-Large-Instruct-2411", "effort": "high"}}
	if len(raw) != 1 || raw["-100123"]["model"] != want["-100123"]["model"] || raw["-100123"]["effort"] != "high" {
		t.Errorf("file %s, want %v", data, want)
	}
	again, err := LoadOverrides(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Get(-100123); got[KeyModel] != "Mistral-Large-Instruct-2411" {
		t.Errorf("reloaded %v", got)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestOverridesRefuseAFileThatDoesNotParse(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		"not JSON":      "{model: x",
		"not an object": `["a"]`,
		"bad chat id":   `{"team": {"model": "x"}}`,
	} {
		path := filepath.Join(t.TempDir(), "o.json")
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadOverrides(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "fix or remove the file") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestOverridesKeepMemoryAndFileInStep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blocker := filepath.Join(dir, "blocker")
	o, err := LoadOverrides(filepath.Join(blocker, "o.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The file's folder becomes a file: every save fails.
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := o.Set(1, KeyModel, "m"); err == nil {
		t.Fatal("saved into a file's child")
	}
	if got := o.Get(1); len(got) != 0 {
		t.Errorf("an unsaved change is in memory: %v", got)
	}
}
