package input

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// EditorDoneMsg carries the text written in $EDITOR back to the input.
type EditorDoneMsg struct {
	Text string
	Err  error
}

// OpenEditor suspends the UI and edits the prompt in $VISUAL or $EDITOR (vi when
// neither is set); the text comes back as an EditorDoneMsg.
func (in *Input) OpenEditor() tea.Cmd {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	f, err := os.CreateTemp("", "albert-code-prompt-*.md")
	if err != nil {
		return func() tea.Msg { return EditorDoneMsg{Err: fmt.Errorf("open the editor: %w", err)} }
	}
	path := f.Name()
	_, err = f.WriteString(in.expand(in.ta.Value()))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return func() tea.Msg { return EditorDoneMsg{Err: fmt.Errorf("open the editor: %w", err)} }
	}
	// The editor setting may carry arguments ("code --wait"): the shell splits it.
	cmd := exec.Command("sh", "-c", editor+` "$1"`, "sh", path)
	return tea.ExecProcess(cmd, func(err error) tea.Msg {
		defer os.Remove(path)
		if err != nil {
			return EditorDoneMsg{Err: fmt.Errorf("editor %q: %w", editor, err)}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return EditorDoneMsg{Err: fmt.Errorf("read the edited prompt: %w", err)}
		}
		return EditorDoneMsg{Text: strings.TrimRight(string(data), "\n")}
	})
}
