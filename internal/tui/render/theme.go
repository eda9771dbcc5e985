package render

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Theme holds every style the UI draws with. NoColor keeps emphasis (bold, faint,
// reverse) but no colour, for NO_COLOR and terminals without colour.
type Theme struct {
	Color bool

	User, Assistant, Reasoning, Notice, Error, Dim, Bold lipgloss.Style
	ToolName, ToolArgs, ToolOK, ToolFail, ToolRunning    lipgloss.Style
	DiffAdd, DiffDel, DiffHunk, DiffFile                 lipgloss.Style
	DialogBorder, DialogTitle, Selected, Key             lipgloss.Style
	Footer, GaugeFull, GaugeEmpty, Warn                  lipgloss.Style
}

// NewTheme builds the theme; colored false is the NO_COLOR theme.
func NewTheme(colored bool) *Theme {
	c := func(hex string) color.Color {
		if !colored {
			return lipgloss.NoColor{}
		}
		return lipgloss.Color(hex)
	}
	s := lipgloss.NewStyle
	return &Theme{
		Color:        colored,
		User:         s().Foreground(c("#7aa2f7")).Bold(true),
		Assistant:    s(),
		Reasoning:    s().Faint(true).Italic(true),
		Notice:       s().Foreground(c("#e0af68")),
		Error:        s().Foreground(c("#f7768e")).Bold(true),
		Dim:          s().Faint(true),
		Bold:         s().Bold(true),
		ToolName:     s().Foreground(c("#bb9af7")).Bold(true),
		ToolArgs:     s().Faint(true),
		ToolOK:       s().Foreground(c("#9ece6a")),
		ToolFail:     s().Foreground(c("#f7768e")),
		ToolRunning:  s().Foreground(c("#e0af68")),
		DiffAdd:      s().Foreground(c("#9ece6a")),
		DiffDel:      s().Foreground(c("#f7768e")),
		DiffHunk:     s().Foreground(c("#7dcfff")),
		DiffFile:     s().Bold(true),
		DialogBorder: s().Border(lipgloss.RoundedBorder()).BorderForeground(c("#e0af68")).Padding(0, 1),
		DialogTitle:  s().Bold(true).Foreground(c("#e0af68")),
		Selected:     s().Reverse(true),
		Key:          s().Bold(true),
		Footer:       s().Faint(true),
		GaugeFull:    s().Foreground(c("#9ece6a")),
		GaugeEmpty:   s().Faint(true),
		Warn:         s().Foreground(c("#e0af68")).Bold(true),
	}
}
