package dialog

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func settingsRows() []SettingRow {
	return []SettingRow{
		{Key: "model", Value: "qwen", Source: "default", Choices: []string{"qwen", "mistral-medium", "deepseek-flash", "local"}, SessionOnly: true},
		{Key: "compaction.threshold", Value: "0.8", Source: "~/.config/albert-code/config.toml:3", Allowed: "a fraction"},
		{Key: "sandbox.mode", Value: "on", Source: "default", Choices: []string{"on", "off"}, GlobalOnly: true},
	}
}

// Esc steps back one screen at a time, keeping what was chosen before it, and
// closes the editor from the list without an answer.
func TestSettingsEscStepsBack(t *testing.T) {
	t.Parallel()
	s := NewSettings(theme, settingsRows(), SettingsPlaces{Global: "~/g.toml", Project: "/repo/.albert-code.toml"})
	press(s, "down", "enter", "backspace", "backspace", "backspace", "0.6", "enter")
	if view := ansi.Strip(s.View(100, 30)); !strings.Contains(view, "Save compaction.threshold = 0.6 where?") || !strings.Contains(view, "This project's config") || strings.Contains(view, "This session only") {
		t.Fatalf("places:\n%s", view)
	}
	press(s, "esc")
	if view := ansi.Strip(s.View(100, 30)); !strings.Contains(view, "accepts a fraction") {
		t.Fatalf("esc from the places did not go back to the value:\n%s", view)
	}
	press(s, "esc")
	if view := ansi.Strip(s.View(100, 30)); !strings.Contains(view, "❯ compaction.threshold") {
		t.Fatalf("esc from the value did not go back to the list on the same setting:\n%s", view)
	}
	press(s, "esc")
	if !s.Done() || s.Result() != nil {
		t.Fatalf("esc from the list: done %v, result %+v", s.Done(), s.Result())
	}
}

func TestSettingsAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		places         SettingsPlaces
		keys           []string
		want           SettingsResult
		view           []string // on the places screen
		projectOffered bool
	}{
		{"a model for this session", SettingsPlaces{Global: "g", Project: "p"}, []string{"enter", "deep", "enter", "3"},
			SettingsResult{Key: "model", Value: "deepseek-flash", Place: SaveSession}, []string{"3. This session only"}, true},
		{"a global-only key has no project place", SettingsPlaces{Global: "g", Project: "p"}, []string{"sandbox", "enter", "2", "1"},
			SettingsResult{Key: "sandbox.mode", Value: "off", Place: SaveGlobal}, []string{"read from your global config only"}, false},
		{"an untrusted project says why", SettingsPlaces{Global: "g", ProjectWhy: "/repo is not a trusted folder"}, []string{"down", "enter", "enter", "1"},
			SettingsResult{Key: "compaction.threshold", Value: "0.8", Place: SaveGlobal}, []string{"Not in the project: /repo is not a trusted folder"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewSettings(theme, settingsRows(), tt.places)
			press(s, tt.keys[:len(tt.keys)-1]...)
			view := ansi.Strip(s.View(100, 30))
			for _, w := range tt.view {
				if !strings.Contains(view, w) {
					t.Errorf("places lack %q:\n%s", w, view)
				}
			}
			if got := strings.Contains(view, "This project's config"); got != tt.projectOffered {
				t.Errorf("project offered %v, want %v:\n%s", got, tt.projectOffered, view)
			}
			press(s, tt.keys[len(tt.keys)-1])
			if r := s.Result(); !s.Done() || r == nil || *r != tt.want {
				t.Fatalf("result %+v, want %+v", r, tt.want)
			}
		})
	}
}
