package tui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/slash"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
)

// EditableConfig is the configuration /config set saves into, read again from
// the disk so that each value's source is the file as it is now.
func (m *Model) EditableConfig() (*config.Config, error) {
	if m.conv == nil {
		return nil, errNotOpen
	}
	c := m.conv.Config()
	if c == nil {
		return nil, slash.ErrUnavailable
	}
	return c.Reload()
}

// OpenConfigEditor opens the settings editor (/config): its answer is saved by
// slash.SetConfig, as /config set would, or switches the session only.
func (m *Model) OpenConfigEditor() {
	cfg, err := m.EditableConfig()
	if err != nil {
		m.chat.AddError("/config: " + err.Error())
		return
	}
	var rows []dialog.SettingRow
	for _, v := range cfg.SettingValues() {
		rows = append(rows, dialog.SettingRow{Key: v.Key, Value: v.Value, Help: v.Help, Source: tilde(v.Source.String()),
			Allowed: v.Allowed(), Choices: m.settingChoices(v), GlobalOnly: v.GlobalOnly, SessionOnly: v.Effect == config.EffectNow})
	}
	var places dialog.SettingsPlaces
	if p, err := cfg.TargetFile(config.TargetGlobal); err == nil {
		places.Global = tilde(p)
	}
	if p, err := cfg.TargetFile(config.TargetProject); err != nil {
		places.ProjectWhy = err.Error()
	} else {
		places.Project = tilde(p)
	}
	d := dialog.NewSettings(m.theme, rows, places)
	m.pushDialog(d, func(m *Model) tea.Cmd {
		r := d.Result()
		if r == nil {
			return nil
		}
		if r.Place == dialog.SaveSession {
			return m.runLater("/" + r.Key + " " + r.Value)
		}
		target := config.TargetGlobal
		if r.Place == dialog.SaveProject {
			target = config.TargetProject
		}
		if err := slash.SetConfig(context.Background(), m, r.Key, r.Value, target); err != nil {
			m.chat.AddError(err.Error())
		}
		cmds := m.pending
		m.pending = nil
		return tea.Batch(cmds...)
	}, nil)
}

// settingChoices lists the values a setting is picked from; nil when it is typed.
func (m *Model) settingChoices(v config.SettingValue) []string {
	var out []string
	switch v.Kind {
	case config.KindBool:
		return []string{"true", "false"}
	case config.KindChoice:
		return v.Choices
	case config.KindModel:
		for _, c := range m.Models() {
			out = append(out, c.Name)
		}
	case config.KindProfile:
		for _, c := range m.Profiles() {
			out = append(out, c.Name)
		}
	default:
		return nil
	}
	if v.Value != "" && !slices.Contains(out, v.Value) {
		out = append([]string{v.Value}, out...)
	}
	return out
}

// pickModelScope asks whether the model picked in /model is for this session or
// also the default, when the session can save it.
func (m *Model) pickModelScope(name string) tea.Cmd {
	if m.sessionConfig() == nil {
		return m.runLater("/model " + name)
	}
	items := []dialog.Item{
		{Label: "1. Use it for this session", Value: ""},
		{Label: "2. Use it and save it as the default", Detail: "global config", Value: " --save"},
	}
	p := dialog.NewPicker(m.theme, "Use "+name, items, 0)
	p.NoFilter = true
	m.pushDialog(p, func(m *Model) tea.Cmd {
		if c := p.Chosen(); c != nil {
			return m.runLater("/model " + name + c.Value)
		}
		return nil
	}, nil)
	return nil
}

// tilde writes a path under the home folder as ~/…, which fits the dialog's width.
func tilde(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return path
	}
	if rest, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok {
		return filepath.Join("~", rest)
	}
	return path
}

var (
	_ slash.ConfigEditor = (*Model)(nil)
	_ slash.ConfigDialog = (*Model)(nil)
)
