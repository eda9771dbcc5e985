// Package chatview is the scrolling conversation of the terminal UI: it turns
// agent events into items (messages, reasoning, tool widgets, notices), renders
// only the items on screen, and caches each item's lines by width so that long
// histories scroll and stream without re-rendering what did not change.
package chatview

import (
	"strings"

	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// View is the conversation. The zero value is not usable: call New.
type View struct {
	theme *render.Theme
	md    *render.Markdown
	items []*item
	tools map[string]*item
	open  *item // the assistant or reasoning item text deltas go to

	width, height int
	opts          options

	// follow keeps the view on the latest line. When off, the screen starts at line
	// topLine of item top: an anchor by item, so jumping to the top of a long
	// history renders only the first screen, not everything in between.
	follow       bool
	top, topLine int
}

// New returns an empty view.
func New(t *render.Theme, md *render.Markdown) *View {
	return &View{theme: t, md: md, tools: map[string]*item{}, follow: true}
}

// SetSize sets the area the view draws in.
func (v *View) SetSize(width, height int) {
	v.width, v.height = max(width, 1), max(height, 0)
}

// Len is the number of items.
func (v *View) Len() int { return len(v.items) }

// Following reports whether the view sticks to the latest line.
func (v *View) Following() bool { return v.follow }

// ToggleTools expands or collapses every tool output and diff.
func (v *View) ToggleTools() { v.opts.expandTools = !v.opts.expandTools; v.invalidate(kindTool) }

// ToggleReasoning shows or folds the model's reasoning.
func (v *View) ToggleReasoning() {
	v.opts.showReasoning = !v.opts.showReasoning
	v.invalidate(kindReasoning)
}

func (v *View) invalidate(k kind) {
	for _, it := range v.items {
		if it.kind == k {
			it.dirty = true
		}
	}
}

// Clear removes every item.
func (v *View) Clear() {
	v.items, v.tools, v.open = nil, map[string]*item{}, nil
	v.follow, v.top, v.topLine = true, 0, 0
}

func (v *View) add(it *item) *item {
	it.dirty = true
	v.items = append(v.items, it)
	return it
}

// AddUser shows a prompt the user sent.
func (v *View) AddUser(text string) { v.open = nil; v.add(newItem(kindUser, text)) }

// AddInfo shows Markdown from the face itself (/help, /status).
func (v *View) AddInfo(md string) { v.open = nil; v.add(newItem(kindInfo, md)) }

// AddNotice shows a one-line notice.
func (v *View) AddNotice(text string) { v.open = nil; v.add(newItem(kindNotice, text)) }

// AddError shows an error.
func (v *View) AddError(text string) { v.open = nil; v.add(newItem(kindError, text)) }

// LastAnswer returns the text of the latest assistant message (/copy).
func (v *View) LastAnswer() string {
	for i := len(v.items) - 1; i >= 0; i-- {
		if v.items[i].kind == kindAssistant {
			return v.items[i].text.String()
		}
	}
	return ""
}

func newItem(k kind, text string) *item {
	it := &item{kind: k, dirty: true}
	it.text.WriteString(text)
	return it
}

func (v *View) lines(i int) []string {
	return v.items[i].render(v.theme, v.md, v.width, v.opts)
}

// Render draws exactly height lines.
func (v *View) Render() string {
	out := v.visible()
	for len(out) < v.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// visible returns the lines on screen, rendering only the items they come from.
func (v *View) visible() []string {
	if v.height == 0 || len(v.items) == 0 {
		return nil
	}
	if v.follow {
		var out []string
		for i := len(v.items) - 1; i >= 0 && len(out) < v.height; i-- {
			out = append(append([]string(nil), v.lines(i)...), out...)
		}
		return trimBlank(out, v.height)
	}
	v.clampTop()
	out := append([]string(nil), v.lines(v.top)[v.topLine:]...)
	for i := v.top + 1; i < len(v.items) && len(out) < v.height; i++ {
		out = append(out, v.lines(i)...)
	}
	if len(out) > v.height {
		out = out[:v.height]
	}
	return out
}

// trimBlank keeps the last height lines, dropping the trailing blank separator.
func trimBlank(out []string, height int) []string {
	if n := len(out); n > 0 && out[n-1] == "" {
		out = out[:n-1]
	}
	if len(out) > height {
		out = out[len(out)-height:]
	}
	return out
}
