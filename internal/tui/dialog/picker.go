package dialog

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// Item is one entry of a Picker.
type Item struct {
	Label, Detail string
	// Value is what choosing the item returns.
	Value string
}

// Picker chooses one item from a list; typing filters it. It serves /model,
// /agent, the session picker and the trusted-folder question.
type Picker struct {
	theme  *render.Theme
	title  string
	items  []Item
	filter string
	sel    int
	done   bool
	chosen *Item
	// NoFilter turns typing off, for short fixed lists (yes/no questions): digits
	// then choose an item.
	NoFilter bool
	// Intro lines explain the choice above the list.
	Intro []string
}

// NewPicker opens a picker; sel is the item selected first.
func NewPicker(t *render.Theme, title string, items []Item, sel int) *Picker {
	return &Picker{theme: t, title: title, items: items, sel: max(0, min(sel, len(items)-1))}
}

// Done reports whether an item was chosen or the picker dismissed.
func (p *Picker) Done() bool { return p.done }

// Chosen is the chosen item; nil when dismissed.
func (p *Picker) Chosen() *Item { return p.chosen }

func (p *Picker) visible() []Item {
	if p.filter == "" {
		return p.items
	}
	f := strings.ToLower(p.filter)
	var out []Item
	for _, it := range p.items {
		if strings.Contains(strings.ToLower(it.Label+" "+it.Detail), f) {
			out = append(out, it)
		}
	}
	return out
}

// Update handles a key.
func (p *Picker) Update(msg tea.Msg) tea.Cmd {
	vis := p.visible()
	switch k := keyOf(msg); k {
	case "esc":
		p.done = true
	case "up", "ctrl+p":
		if len(vis) > 0 {
			p.sel = (p.sel + len(vis) - 1) % len(vis)
		}
	case "down", "ctrl+n", "tab":
		if len(vis) > 0 {
			p.sel = (p.sel + 1) % len(vis)
		}
	case "enter":
		if p.sel < len(vis) {
			it := vis[p.sel]
			p.chosen, p.done = &it, true
		}
	case "backspace":
		if p.filter != "" && !p.NoFilter {
			p.filter = p.filter[:len(p.filter)-1]
			p.sel = 0
		}
	default:
		if kp, ok := msg.(tea.KeyPressMsg); ok && kp.Text != "" && !p.NoFilter {
			p.filter += kp.Text
			p.sel = 0
		}
		if p.NoFilter && len(k) == 1 && k[0] >= '1' && int(k[0]-'1') < len(vis) {
			it := vis[k[0]-'1']
			p.chosen, p.done = &it, true
		}
	}
	return nil
}

// View draws the list around the selection in a box.
func (p *Picker) View(width, height int) string {
	return frame(p.theme, p.title, p.Lines(width, height), width, height)
}

// Lines draws the list without a box, for a dialog that embeds the picker.
func (p *Picker) Lines(width, height int) []string {
	t := p.theme
	vis := p.visible()
	var body []string
	for _, l := range p.Intro {
		body = append(body, render.Wrap(l, max(width-4, 8))...)
	}
	if len(p.Intro) > 0 {
		body = append(body, "")
	}
	if !p.NoFilter {
		body = append(body, t.Dim.Render("filter: ")+p.filter+"▏", "")
	}
	room := max(height-2-1-len(body)-1, 1)
	start := 0
	if p.sel >= room {
		start = p.sel - room + 1
	}
	var opts []string
	for i := start; i < len(vis) && i < start+room; i++ {
		l := vis[i].Label
		if vis[i].Detail != "" {
			l += "  " + t.Dim.Render(vis[i].Detail)
		}
		opts = append(opts, l)
	}
	if len(vis) == 0 {
		body = append(body, t.Dim.Render("  nothing matches"))
	}
	body = append(body, menu(t, opts, p.sel-start)...)
	return append(body, t.Dim.Render("enter to choose · esc to close"))
}
