package chatview

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// kind is what an item of the conversation shows.
type kind int

const (
	kindUser kind = iota
	kindAssistant
	kindReasoning
	kindTool
	kindNotice
	kindError
	kindInfo // Markdown from the face itself: /help, /status...
)

// toolState is where a tool call stands.
type toolState int

const (
	toolAsking toolState = iota
	toolRunning
	toolDone
	toolFailed
)

// item is one entry of the conversation with its render cache. Text grows while
// the item streams; lines are rendered for width and dropped on any change.
type item struct {
	kind kind
	text strings.Builder

	// tool calls
	toolID, toolName string
	args             json.RawMessage
	output           strings.Builder
	result           string
	display          any
	state            toolState

	// cache
	width  int
	lines  []string
	dirty  bool
	blocks []block // assistant Markdown blocks, rendered once each
}

// block is one finished Markdown block and its lines at a width.
type block struct {
	src   string
	lines []string
}

// options are the view-wide switches that change how items render.
type options struct {
	expandTools   bool
	showReasoning bool
}

// toolPreviewLines is how much live output a collapsed tool widget shows: enough to
// see progress, small enough that a noisy build does not push the answer away.
// Judgement, as is diffPreviewLines.
const (
	toolPreviewLines = 8
	diffPreviewLines = 24
)

// render returns the item's lines for width, from the cache when nothing changed.
func (it *item) render(t *render.Theme, md *render.Markdown, width int, o options) []string {
	if !it.dirty && it.width == width && it.lines != nil {
		return it.lines
	}
	if it.width != width {
		it.blocks = nil
	}
	it.width, it.dirty = width, false
	switch it.kind {
	case kindUser:
		it.lines = prefixed(t.User.Render("❯ "), "  ", render.Wrap(render.Sanitize(it.text.String()), width-2))
	case kindAssistant:
		it.lines = prefixed("  ", "  ", it.renderMarkdown(md, width-2))
	case kindInfo:
		it.lines = prefixed("  ", "  ", md.Render(it.text.String(), width-2))
	case kindReasoning:
		it.lines = it.renderReasoning(t, width, o)
	case kindTool:
		it.lines = it.renderTool(t, width, o)
	case kindNotice:
		it.lines = styled(t.Notice, render.Wrap("• "+render.Sanitize(it.text.String()), width))
	case kindError:
		it.lines = styled(t.Error, render.Wrap("✗ "+render.Sanitize(it.text.String()), width))
	}
	it.lines = append(it.lines, "") // one blank line between items
	return it.lines
}

// renderMarkdown renders the finished blocks once and only the last, still growing,
// block every time: streaming stays cheap however long the answer.
func (it *item) renderMarkdown(md *render.Markdown, width int) []string {
	srcs := render.SplitBlocks(it.text.String())
	keep := 0
	for keep < len(it.blocks) && keep < len(srcs)-1 && it.blocks[keep].src == srcs[keep] {
		keep++
	}
	it.blocks = it.blocks[:keep]
	for _, s := range srcs[keep : len(srcs)-1] {
		it.blocks = append(it.blocks, block{src: s, lines: md.Render(s, width)})
	}
	var out []string
	for i, b := range it.blocks {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, b.lines...)
	}
	if last := srcs[len(srcs)-1]; strings.TrimSpace(last) != "" {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, md.Render(last, width)...)
	}
	return out
}

func (it *item) renderReasoning(t *render.Theme, width int, o options) []string {
	lines := render.Wrap(strings.TrimSpace(render.Sanitize(it.text.String())), width-2)
	if !o.showReasoning && len(lines) > 1 {
		head := fmt.Sprintf("▸ thinking (%d lines, ctrl+t to show)", len(lines))
		return styled(t.Reasoning, []string{head, "  " + lines[len(lines)-1]})
	}
	return styled(t.Reasoning, prefixed("▾ ", "  ", lines))
}

func (it *item) renderTool(t *render.Theme, width int, o options) []string {
	icon, st := "●", t.ToolRunning
	switch it.state {
	case toolAsking:
		icon = "?"
	case toolDone:
		icon, st = "✓", t.ToolOK
	case toolFailed:
		icon, st = "✗", t.ToolFail
	}
	head := st.Render(icon) + " " + t.ToolName.Render(it.toolName)
	if sum := ToolSummary(it.toolName, it.args); sum != "" {
		room := width - ansi.StringWidth(head) - 2
		if room > 3 {
			head += "  " + t.ToolArgs.Render(ansi.Truncate(sum, room, "…"))
		}
	}
	out := []string{head}
	body := width - 4
	limit := toolPreviewLines
	if o.expandTools {
		limit = 0
	}
	if fd, ok := it.display.(builtin.FileDiff); ok && it.state == toolDone {
		dl := diffPreviewLines
		if o.expandTools {
			dl = 0
		}
		return append(out, prefixed("  ⎿ ", "    ", render.Diff(t, fd.Unified, body, dl))...)
	}
	text := it.output.String()
	if it.state == toolDone || it.state == toolFailed {
		text = it.result
	}
	if text = strings.TrimRight(render.Sanitize(text), "\n"); text == "" {
		return out
	}
	lines := render.Wrap(text, body)
	if limit > 0 && len(lines) > limit {
		// The hint goes first: the latest output is what matters while it runs.
		hint := fmt.Sprintf("… %d earlier lines (ctrl+o shows all)", len(lines)-limit)
		lines = append([]string{hint}, lines[len(lines)-limit:]...)
	}
	s := t.Dim
	if it.state == toolFailed {
		s = t.ToolFail
	}
	return append(out, prefixed("  ⎿ ", "    ", styled(s, lines))...)
}

// ToolSummary is the one-line gist of a call's arguments shown beside its name:
// the command, path, pattern or URL when there is one, else the compact JSON.
func ToolSummary(name string, args json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return strings.Join(strings.Fields(string(args)), " ")
	}
	for _, k := range []string{"command", "path", "file_path", "pattern", "url", "query", "description", "prompt"} {
		if v, ok := m[k].(string); ok && v != "" {
			return strings.Join(strings.Fields(render.Sanitize(v)), " ")
		}
	}
	if len(m) == 0 {
		return ""
	}
	b, _ := json.Marshal(m)
	return render.Sanitize(string(b))
}

func prefixed(first, rest string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if i == 0 {
			out[i] = first + l
		} else {
			out[i] = rest + l
		}
	}
	return out
}

func styled(s interface{ Render(...string) string }, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = s.Render(l)
	}
	return out
}
