package tui

import (
	"errors"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
)

func TestTrustQuestionComesFirst(t *testing.T) {
	t.Parallel()
	var decided []bool
	tests := []struct {
		key            string
		trust, records bool
	}{
		{"1", true, true},
		{"3", false, true},
		{"2", false, false},
	}
	for _, tt := range tests {
		decided = nil
		l := newLoop(t, 90, 30, func(o *Options) {
			o.Trust = &Trust{Dir: "/src/project", Decide: func(trust, remember bool) error {
				if remember {
					decided = append(decided, trust)
				}
				return nil
			}}
		})
		if l.m.opening || l.m.conv != nil {
			t.Fatal("the session opened before the trust question was answered")
		}
		l.waitScreen("Do you trust this folder?")
		l.press(tt.key)
		l.ready()
		if tt.records != (len(decided) == 1) || (tt.records && decided[0] != tt.trust) {
			t.Errorf("key %s: decisions %v", tt.key, decided)
		}
	}
}

func TestSetupOnMissingKey(t *testing.T) {
	t.Parallel()
	type saved struct{ provider, model, key string }
	var got []saved
	// The fake home has no key until setup "saves" it.
	noKey := func(vars map[string]string) { delete(vars, "ALBERT_API_KEY") }
	l := newLoopVars(t, 90, 30, noKey, func(o *Options) {
		o.Setup = &Setup{
			Providers: []dialog.ProviderOption{{Name: "albert", KeyEnv: "ALBERT_API_KEY", Models: []string{"mistral-medium"}}},
			Save: func(p dialog.ProviderOption, model, key string) error {
				got = append(got, saved{p.Name, model, key})
				if len(got) == 1 {
					return errors.New("disk full")
				}
				return nil
			},
		}
	}, fakemodel.Turn{Text: []string{"configured"}})
	l.waitScreen("Welcome to albert-code: setup")
	l.press("enter", "sk-1", "enter")
	l.waitScreen("disk full")
	l.vars["ALBERT_API_KEY"] = "sk-1"
	l.press("enter")
	l.ready()
	if len(got) != 2 || got[1] != (saved{"albert", "mistral-medium", "sk-1"}) {
		t.Errorf("saved %+v", got)
	}
	l.typeLine("hi")
	l.waitScreen("configured")
}

func TestSetupFlagOpensItFirst(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 90, 30, func(o *Options) {
		o.ShowSetup = true
		o.Setup = &Setup{Providers: []dialog.ProviderOption{{Name: "ollama"}}, Save: func(dialog.ProviderOption, string, string) error { return nil }}
	})
	l.waitScreen("Welcome to albert-code: setup")
	if l.m.conv != nil || l.m.opening {
		t.Fatal("the session opened under the setup screen")
	}
	l.press("esc")
	l.ready()
}
