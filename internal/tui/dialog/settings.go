package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// SettingRow is one setting the settings editor lists.
type SettingRow struct {
	Key, Value, Help string
	// Source says where the value comes from ("default", "~/.config/…:3", "env …").
	Source string
	// Allowed says in words what the setting accepts.
	Allowed string
	// Choices, when set, are picked from a list (true/false, the models, the
	// profiles...); otherwise the value is typed.
	Choices []string
	// GlobalOnly settings cannot be saved in the project file.
	GlobalOnly bool
	// SessionOnly offers "this session only" as a place (the model, the profile).
	SessionOnly bool
}

// Places the settings editor saves to.
const (
	SaveGlobal  = "global"
	SaveProject = "project"
	SaveSession = "session"
)

// SettingsPlaces are the files the editor offers; ProjectWhy, when set, says why
// the project file is not offered (an untrusted folder).
type SettingsPlaces struct {
	Global, Project, ProjectWhy string
}

// Settings is the /config editor: choose a setting, then its value (from a list
// or typed), then where to save it. The UI saves the answer.
type Settings struct {
	theme  *render.Theme
	rows   []SettingRow
	places SettingsPlaces
	step   int // 0 the setting, 1 its value, 2 where
	list   *Picker
	values *Picker // step 1 with choices
	text   textinput.Model
	where  *Picker
	row    SettingRow
	value  string
	done   bool
	result *SettingsResult
}

// SettingsResult is the editor's answer.
type SettingsResult struct {
	Key, Value string
	// Place is SaveGlobal, SaveProject or SaveSession.
	Place string
}

// NewSettings opens the editor on rows.
func NewSettings(t *render.Theme, rows []SettingRow, places SettingsPlaces) *Settings {
	s := &Settings{theme: t, rows: rows, places: places}
	in := textinput.New()
	in.Prompt = "› "
	s.text = in
	s.pickSetting(0)
	return s
}

func (s *Settings) pickSetting(sel int) {
	width := 0
	for _, r := range s.rows {
		width = max(width, len(r.Key))
	}
	var items []Item
	for _, r := range s.rows {
		v := r.Value
		if v == "" {
			v = `""`
		}
		items = append(items, Item{Label: fmt.Sprintf("%-*s  %s", width, r.Key, v), Detail: "· " + r.Source, Value: r.Key})
	}
	s.list = NewPicker(s.theme, "", items, sel)
	s.step = 0
}

// Done reports whether the editor has its answer or was closed.
func (s *Settings) Done() bool { return s.done }

// Result is the answer; nil when the editor was closed without one.
func (s *Settings) Result() *SettingsResult { return s.result }

// Update handles a key.
func (s *Settings) Update(msg tea.Msg) tea.Cmd {
	switch s.step {
	case 0:
		s.list.Update(msg)
		if !s.list.Done() {
			return nil
		}
		c := s.list.Chosen()
		if c == nil {
			s.done = true
			return nil
		}
		for _, r := range s.rows {
			if r.Key == c.Value {
				s.row = r
			}
		}
		return s.toValue()
	case 1:
		return s.updateValue(msg)
	}
	s.where.Update(msg)
	if !s.where.Done() {
		return nil
	}
	if c := s.where.Chosen(); c != nil {
		s.result, s.done = &SettingsResult{Key: s.row.Key, Value: s.value, Place: c.Value}, true
		return nil
	}
	return s.toValue() // esc: back to the value
}

func (s *Settings) toValue() tea.Cmd {
	s.step = 1
	if s.row.Choices != nil {
		var items []Item
		sel := 0
		for i, c := range s.row.Choices {
			items = append(items, Item{Label: c, Value: c})
			if c == s.row.Value {
				sel = i
			}
		}
		s.values = NewPicker(s.theme, "", items, sel)
		s.values.NoFilter = len(items) <= 3 // true/false and short choices: digits pick
		return nil
	}
	s.text.SetValue(s.row.Value)
	s.text.CursorEnd()
	return s.text.Focus()
}

func (s *Settings) updateValue(msg tea.Msg) tea.Cmd {
	if s.row.Choices != nil {
		s.values.Update(msg)
		if !s.values.Done() {
			return nil
		}
		c := s.values.Chosen()
		if c == nil {
			s.back()
			return nil
		}
		s.value = c.Value
		s.toWhere()
		return nil
	}
	switch keyOf(msg) {
	case "esc":
		s.text.Blur()
		s.back()
		return nil
	case "enter":
		s.value = strings.TrimSpace(s.text.Value())
		s.text.Blur()
		s.toWhere()
		return nil
	}
	var cmd tea.Cmd
	s.text, cmd = s.text.Update(msg)
	return cmd
}

// back returns to the list with the setting just left selected.
func (s *Settings) back() {
	for i, r := range s.rows {
		if r.Key == s.row.Key {
			s.pickSetting(i)
			return
		}
	}
	s.pickSetting(0)
}

func (s *Settings) toWhere() {
	s.step = 2
	items := []Item{{Label: "1. Your global config, for every folder", Detail: s.places.Global, Value: SaveGlobal}}
	var intro []string
	switch {
	case s.row.GlobalOnly:
		intro = append(intro, s.row.Key+" is read from your global config only: a project file is written by the repository's authors.")
	case s.places.ProjectWhy != "":
		intro = append(intro, "Not in the project: "+s.places.ProjectWhy)
	default:
		items = append(items, Item{Label: fmt.Sprintf("%d. This project's config", len(items)+1), Detail: s.places.Project, Value: SaveProject})
	}
	if s.row.SessionOnly {
		items = append(items, Item{Label: fmt.Sprintf("%d. This session only, saved nowhere", len(items)+1), Value: SaveSession})
	}
	s.where = NewPicker(s.theme, "", items, 0)
	s.where.NoFilter = true
	s.where.Intro = intro
}

// View draws the current step in a box.
func (s *Settings) View(width, height int) string {
	t := s.theme
	inner := max(width-4, 8)
	room := max(height-4, 5)
	var body []string
	switch s.step {
	case 0:
		body = append(body, t.Dim.Render("Choose a setting to change; the value's source is after it."), "")
		body = append(body, s.list.Lines(inner, room-2)...)
	case 1:
		body = append(body, t.Bold.Render(s.row.Key))
		body = append(body, render.Wrap(s.row.Help, inner)...)
		body = append(body, t.Dim.Render("now "+showEmpty(s.row.Value)+" · from "+s.row.Source), t.Dim.Render("accepts "+s.row.Allowed), "")
		if s.row.Choices != nil {
			body = append(body, s.values.Lines(inner, room-5)...)
		} else {
			s.text.SetWidth(max(inner-4, 10))
			body = append(body, s.text.View(), "", t.Dim.Render("enter to go on · esc to go back"))
		}
	case 2:
		body = append(body, t.Bold.Render(fmt.Sprintf("Save %s = %s where?", s.row.Key, showEmpty(s.value))), "")
		body = append(body, s.where.Lines(inner, room-2)...)
	}
	return frame(t, "Settings", body, width, height)
}

func showEmpty(v string) string {
	if v == "" {
		return `""`
	}
	return v
}
