package main

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"runtime"
	"time"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/session"
)

// longSession asks startUI to write and resume a long session.
const longSession = "long"

var longMessages int

// writeLongSession writes a session of longMessages messages: prompts, answers
// with Markdown, and tool calls with their results, in the store of env.
// It returns the session's ID.
func writeLongSession(env *agentenv.Env) (string, error) {
	log, err := env.SessionStore().Create(session.Meta{Cwd: env.WorkDir, Model: "mistral-medium", Title: "long"})
	if err != nil {
		return "", err
	}
	defer log.Close()
	var batch []llm.Message
	for i := 0; len(batch) < longMessages; i++ {
		switch i % 4 {
		case 0:
			batch = append(batch, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("question %d: why does the parser drop the last line?", i)})
		case 1:
			batch = append(batch, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: fmt.Sprint("c", i), Name: "read", Arguments: `{"path":"parse.go"}`}}})
		case 2:
			batch = append(batch, llm.Message{Role: llm.RoleTool, ToolCallID: fmt.Sprint("c", i-1), ToolName: "read", Content: "1\tpackage parse\n2\t\n3\tfunc Parse(s string) []string {\n4\t\treturn strings.Split(s, \"\\n\")\n5\t}\n"})
		default:
			batch = append(batch, llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("## Answer %d\n\nThe **split** keeps an empty field:\n\n```go\nstrings.Split(s, \"\\n\")\n```\n\n- trim the newline\n- or use a scanner\n", i)})
		}
	}
	return log.Meta().ID, log.Append(batch...)
}

// benchLongSession resumes a session of messages messages and reports the heap
// it costs and how long until the first screen is drawn.
func benchLongSession(messages int) error {
	longMessages = messages
	srv, err := fakemodel.Start(fakemodel.Script{})
	if err != nil {
		return err
	}
	defer srv.Close()
	before := heap()
	start := time.Now()
	s, stop, err := startUI(srv.URL(), longSession, 120, 40)
	if err != nil {
		return err
	}
	defer stop()
	opened := time.Since(start)
	time.Sleep(100 * time.Millisecond) // a few frames
	after := heap()
	fmt.Println()
	fmt.Printf("long session: %d messages resumed and drawn in %.0f ms; heap %.1f MiB more than before (%.0f bytes a message)\n",
		messages, ms(opened), float64(after-before)/(1<<20), float64(after-before)/float64(messages))

	// Page up through the history, jump to the top and back to the bottom.
	s.ui.setRecording(true)
	for range 200 {
		s.prog.Send(tea.KeyPressMsg{Code: tea.KeyPgUp})
	}
	s.prog.Send(tea.KeyPressMsg{Code: tea.KeyHome, Mod: tea.ModCtrl})
	s.prog.Send(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	time.Sleep(time.Second)
	s.ui.setRecording(false)
	s.ui.mu.Lock()
	views := s.ui.views
	s.ui.mu.Unlock()
	line("View while paging (200 pgup, top, bottom)", views)
	return nil
}

func heap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
