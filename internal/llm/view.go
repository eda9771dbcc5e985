package llm

// PromptView folds compaction summaries into a history: each summary message replaces
// the Replaces messages before it, so what remains is what the model is sent. The full
// history (the session log) is left untouched.
func PromptView(history []Message) []Message {
	view := make([]Message, 0, len(history))
	for _, m := range history {
		if m.Summary {
			n := min(max(m.Replaces, 0), len(view))
			kept := append([]Message{m}, view[n:]...)
			view = append(view[:0], kept...)
			continue
		}
		view = append(view, m)
	}
	return view
}
