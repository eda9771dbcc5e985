package dialog

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// ProviderOption is a provider the setup screen offers.
type ProviderOption struct {
	Name, BaseURL string
	// KeyEnv names the key's variable; empty for keyless local servers.
	KeyEnv string
	Models []string
}

// Setup is the first-run screen: choose a provider, one of its models, and type
// its API key (hidden as it is typed).
type Setup struct {
	theme     *render.Theme
	providers []ProviderOption
	step      int // 0 provider, 1 model, 2 key
	picker    *Picker
	key       textinput.Model
	provider  ProviderOption
	model     string
	errMsg    string
	done      bool
	cancelled bool
}

// NewSetup opens the screen; current preselects the provider in use, if any.
func NewSetup(t *render.Theme, providers []ProviderOption, current string) *Setup {
	k := textinput.New()
	k.Prompt = "› "
	k.EchoMode = textinput.EchoPassword
	k.EchoCharacter = '•'
	s := &Setup{theme: t, providers: providers, key: k}
	var items []Item
	sel := 0
	for i, p := range providers {
		detail := p.BaseURL
		if p.KeyEnv == "" {
			detail += " (no key)"
		}
		items = append(items, Item{Label: p.Name, Detail: detail, Value: p.Name})
		if p.Name == current {
			sel = i
		}
	}
	s.picker = NewPicker(t, "", items, sel)
	s.picker.NoFilter = true
	return s
}

// Done reports whether the user finished or left the screen.
func (s *Setup) Done() bool { return s.done }

// Cancelled reports whether the user left with Esc.
func (s *Setup) Cancelled() bool { return s.cancelled }

// Result is the provider, model and key chosen; meaningful once Done.
func (s *Setup) Result() (provider ProviderOption, model, key string) {
	return s.provider, s.model, strings.TrimSpace(s.key.Value())
}

// Retry reopens the key step with an error, when saving failed.
func (s *Setup) Retry(msg string) {
	s.done, s.errMsg, s.step = false, msg, 2
	if s.provider.KeyEnv == "" {
		s.step = 0
	}
}

// Update handles a key.
func (s *Setup) Update(msg tea.Msg) tea.Cmd {
	if keyOf(msg) == "esc" && s.step == 0 {
		s.done, s.cancelled = true, true
		return nil
	}
	if s.step == 2 {
		switch keyOf(msg) {
		case "enter":
			if strings.TrimSpace(s.key.Value()) == "" {
				s.errMsg = "paste the key, or press esc to go back"
				return nil
			}
			s.done = true
		case "esc":
			s.back()
		default:
			var cmd tea.Cmd
			s.key, cmd = s.key.Update(msg)
			return cmd
		}
		return nil
	}
	s.picker.Update(msg)
	if !s.picker.Done() {
		return nil
	}
	chosen := s.picker.Chosen()
	if chosen == nil { // esc on the model step
		s.back()
		return nil
	}
	if s.step == 0 {
		for _, p := range s.providers {
			if p.Name == chosen.Value {
				s.provider = p
			}
		}
		if len(s.provider.Models) > 1 {
			s.step = 1
			var items []Item
			for _, m := range s.provider.Models {
				items = append(items, Item{Label: m, Value: m})
			}
			s.picker = NewPicker(s.theme, "", items, 0)
			s.picker.NoFilter = true
			return nil
		}
		if len(s.provider.Models) == 1 {
			s.model = s.provider.Models[0]
		}
	} else {
		s.model = chosen.Value
	}
	return s.toKey()
}

func (s *Setup) toKey() tea.Cmd {
	if s.provider.KeyEnv == "" {
		s.done = true
		return nil
	}
	s.step, s.errMsg = 2, ""
	return s.key.Focus()
}

func (s *Setup) back() {
	s.errMsg = ""
	s.step = 0
	s.key.Blur()
	items := make([]Item, len(s.providers))
	sel := 0
	for i, p := range s.providers {
		items[i] = Item{Label: p.Name, Detail: p.BaseURL, Value: p.Name}
		if p.Name == s.provider.Name {
			sel = i
		}
	}
	s.picker = NewPicker(s.theme, "", items, sel)
	s.picker.NoFilter = true
}

// View draws the current step full screen.
func (s *Setup) View(width, height int) string {
	t := s.theme
	body := []string{"albert-code drives a model through an OpenAI-compatible server.", ""}
	switch s.step {
	case 0:
		body = append(body, t.Bold.Render("1. Choose a provider"), "")
		body = append(body, s.picker.Lines(width-4, max(height-8, 5))...)
	case 1:
		body = append(body, t.Bold.Render("2. Choose a model of "+s.provider.Name), "")
		body = append(body, s.picker.Lines(width-4, max(height-8, 5))...)
	case 2:
		body = append(body, t.Bold.Render("3. Paste your "+s.provider.Name+" API key"),
			t.Dim.Render("saved as "+s.provider.KeyEnv+" in the .env file of albert-code's home, readable by you only"), "")
		s.key.SetWidth(max(width-10, 10))
		body = append(body, s.key.View(), "", t.Dim.Render("enter to save · esc to go back"))
	}
	if s.errMsg != "" {
		body = append(body, "", t.Error.Render(s.errMsg))
	}
	return frame(t, "Welcome to albert-code: setup", body, width, height)
}
