package dialog

import (
	"strings"
	"testing"
)

// The setup screen offers a server of the user's own: its URL (checked), its model,
// and a key that may stay empty.
func TestSetupOwnServer(t *testing.T) {
	t.Parallel()
	providers := []ProviderOption{{Name: "albert", KeyEnv: "ALBERT_API_KEY", Models: []string{"mistral-medium"}}}
	s := NewSetup(theme, providers, "albert")
	if v := s.View(100, 24); !strings.Contains(v, "Your own server") {
		t.Fatalf("no custom server offered:\n%s", v)
	}
	press(s, "down", "enter")
	press(s, "localhost:11434", "enter")
	if v := s.View(100, 24); !strings.Contains(v, "want http:// or https://") {
		t.Fatalf("a URL without a scheme was accepted:\n%s", v)
	}
	for range len("localhost:11434") {
		press(s, "backspace")
	}
	press(s, "http://localhost:11434/v1", "enter")
	if v := s.View(100, 24); !strings.Contains(v, "Type the model to use on http://localhost:11434/v1") {
		t.Fatalf("model step:\n%s", v)
	}
	press(s, "qwen3:8b", "enter")
	if v := s.View(100, 24); !strings.Contains(v, "empty for a server without a key") || !strings.Contains(v, "CUSTOM_API_KEY") {
		t.Fatalf("key step:\n%s", v)
	}
	press(s, "enter") // no key
	p, model, key := s.Result()
	if !s.Done() || !p.Custom || p.BaseURL != "http://localhost:11434/v1" || model != "qwen3:8b" || key != "" {
		t.Fatalf("done %v, result %+v %q %q", s.Done(), p, model, key)
	}
	// Esc from the URL goes back to the providers.
	s = NewSetup(theme, providers, "")
	press(s, "down", "enter", "esc")
	if v := s.View(100, 24); !strings.Contains(v, "Choose a provider") || s.Done() {
		t.Fatalf("esc on the URL step:\n%s", v)
	}
}
