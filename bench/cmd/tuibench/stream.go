package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// answerTokens builds a Markdown answer of n tokens, about four characters each,
// as a model writes one: paragraphs, lists and fenced code.
func answerTokens(n int) []string {
	words := strings.Fields("the parser keeps a trailing empty field so the last line of the file is lost when the input ends with a newline character")
	var out []string
	for len(out) < n {
		i := len(out)
		switch {
		case i%120 == 0 && i > 0:
			out = append(out, "\n\n```go\n", "func ", "parse", "(s ", "string) ", "[]string ", "{\n", "\treturn ", "strings.", "Split(s, ", "\"\\n\")\n", "}\n```\n\n")
		case i%40 == 0 && i > 0:
			out = append(out, "\n\n- ")
		default:
			out = append(out, words[i%len(words)]+" ")
		}
	}
	return out[:n]
}

// benchStream streams an answer of tokens tokens at rate tokens per second and
// times every View and every write to the terminal while it streams.
func benchStream(tokens, rate int) error {
	srv, err := fakemodel.Start(fakemodel.Script{Turns: []fakemodel.Turn{{
		Text: answerTokens(tokens), ChunkDelay: time.Second / time.Duration(rate),
	}}})
	if err != nil {
		return err
	}
	defer srv.Close()
	s, stop, err := startUI(srv.URL(), "", 120, 40)
	if err != nil {
		return err
	}
	defer stop()
	s.ui.setRecording(true)
	s.out.mu.Lock()
	s.out.record = true
	s.out.mu.Unlock()
	start := time.Now()
	s.prog.Send(tea.PasteMsg{Content: "explain the parser bug"})
	s.prog.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	select {
	case <-s.ui.turnDone:
	case <-time.After(time.Duration(tokens/rate+60) * time.Second):
		return fmt.Errorf("the answer did not finish streaming")
	}
	elapsed := time.Since(start)
	time.Sleep(50 * time.Millisecond) // let the last frame flush
	s.ui.setRecording(false)
	s.out.mu.Lock()
	s.out.record = false
	writes, bytes := s.out.writes, s.out.bytes
	s.out.mu.Unlock()
	s.ui.mu.Lock()
	views, updates := s.ui.views, s.ui.updates
	s.ui.mu.Unlock()

	total := 0
	for _, b := range bytes {
		total += b
	}
	fmt.Println()
	fmt.Printf("streaming %d tokens at %d tokens/s took %.1f s: %d updates, %d views, %d terminal writes, %d KiB written\n",
		tokens, rate, elapsed.Seconds(), len(updates), len(views), len(writes), total/1024)
	line("Update per message", updates)
	line("View per frame", views)
	line("write to the pty per frame", writes)
	over := 0
	for i, v := range views {
		if v > 16*time.Millisecond {
			over++
		}
		if v > 5*time.Millisecond && os.Getenv("TUIBENCH_DEBUG") != "" {
			fmt.Printf("  slow view %d: %.1f ms\n", i, ms(v))
		}
	}
	fmt.Printf("views over 16 ms: %d of %d\n", over, len(views))
	return nil
}
