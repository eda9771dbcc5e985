package dialog

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/tui/firstrun"
	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// ProviderOption is a provider the setup screen offers.
type ProviderOption struct {
	Name, BaseURL string
	// KeyEnv names the key's variable; empty for keyless local servers.
	KeyEnv string
	Models []string
	// Custom marks a server the user typed (BaseURL, and the model as Models[0]);
	// its key may be empty.
	Custom bool
}

// ownServer is the picker value of "your own server", which no provider name can be.
const ownServer = "\x00own"

// Setup is the first-run screen: choose a provider, one of its models, and type
// its API key (hidden as it is typed).
type Setup struct {
	theme     *render.Theme
	providers []ProviderOption
	step      int // 0 provider, 1 model, 2 key, 3 own server's URL, 4 its model
	picker    *Picker
	key       textinput.Model
	url       textinput.Model
	ownModel  textinput.Model
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
	line := func(placeholder string) textinput.Model {
		in := textinput.New()
		in.Prompt, in.Placeholder = "› ", placeholder
		return in
	}
	s := &Setup{theme: t, providers: providers, key: k,
		url: line("http://localhost:11434/v1"), ownModel: line("the model id the server serves")}
	s.provider.Name = current
	s.pickProvider()
	return s
}

// pickProvider shows the providers, then "your own server", the current one selected.
func (s *Setup) pickProvider() {
	var items []Item
	sel := 0
	for i, p := range s.providers {
		detail := p.BaseURL
		if p.KeyEnv == "" {
			detail += " (no key)"
		}
		items = append(items, Item{Label: p.Name, Detail: detail, Value: p.Name})
		if p.Name == s.provider.Name {
			sel = i
		}
	}
	items = append(items, Item{Label: "Your own server", Detail: "any OpenAI-compatible URL (Ollama, vLLM...)", Value: ownServer})
	if s.provider.Custom {
		sel = len(items) - 1
	}
	s.picker = NewPicker(s.theme, "", items, sel)
	s.picker.NoFilter = true
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
	if s.provider.KeyEnv == "" && !s.provider.Custom {
		s.step = 0
	}
}

// Update handles a key.
func (s *Setup) Update(msg tea.Msg) tea.Cmd {
	if keyOf(msg) == "esc" && s.step == 0 {
		s.done, s.cancelled = true, true
		return nil
	}
	if s.step == 3 || s.step == 4 {
		return s.updateOwnServer(msg)
	}
	if s.step == 2 {
		switch keyOf(msg) {
		case "enter":
			if strings.TrimSpace(s.key.Value()) == "" && !s.provider.Custom {
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
	if s.step == 0 && chosen.Value == ownServer {
		s.provider = ProviderOption{Name: firstrun.ServerProvider, Custom: true}
		s.step, s.errMsg = 3, ""
		return s.url.Focus()
	}
	if s.step == 0 {
		s.provider = ProviderOption{}
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
	s.url.Blur()
	s.ownModel.Blur()
	s.pickProvider()
}

// updateOwnServer handles the URL and model steps of a server the user types.
func (s *Setup) updateOwnServer(msg tea.Msg) tea.Cmd {
	in := &s.url
	if s.step == 4 {
		in = &s.ownModel
	}
	switch keyOf(msg) {
	case "esc":
		s.back()
		return nil
	case "enter":
		v := strings.TrimSpace(in.Value())
		if s.step == 3 {
			if err := firstrun.CheckServerURL(v); err != nil {
				s.errMsg = err.Error()
				return nil
			}
			s.provider.BaseURL, s.step, s.errMsg = v, 4, ""
			s.url.Blur()
			return s.ownModel.Focus()
		}
		if v == "" {
			s.errMsg = "type the model id the server serves (its /v1/models lists them)"
			return nil
		}
		s.provider.Models, s.model, s.errMsg = []string{v}, v, ""
		s.ownModel.Blur()
		s.step = 2
		return s.key.Focus()
	}
	var cmd tea.Cmd
	*in, cmd = in.Update(msg)
	return cmd
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
		keyEnv, hint := s.provider.KeyEnv, "enter to save · esc to go back"
		if s.provider.Custom {
			keyEnv, hint = firstrun.ServerKeyEnv, "enter to save (empty for a server without a key) · esc to go back"
		}
		body = append(body, t.Bold.Render("3. Paste your "+s.provider.Name+" API key"),
			t.Dim.Render("saved as "+keyEnv+" in the .env file of albert-code's home, readable by you only"), "")
		s.key.SetWidth(max(width-10, 10))
		body = append(body, s.key.View(), "", t.Dim.Render(hint))
	case 3, 4:
		in, title := s.url, "2. Type the URL of your OpenAI-compatible server (its base, ending in /v1)"
		if s.step == 4 {
			in, title = s.ownModel, "2. Type the model to use on "+s.provider.BaseURL
		}
		in.SetWidth(max(width-10, 10))
		body = append(body, t.Bold.Render(title), "", in.View(), "", t.Dim.Render("enter to go on · esc to go back"))
	}
	if s.errMsg != "" {
		body = append(body, "", t.Error.Render(s.errMsg))
	}
	return frame(t, "Welcome to albert-code: setup", body, width, height)
}
