package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
)

// runFloor is the physical floor: the least any agent must do for the session,
// with no agent around it. It sends the three streamed chat requests in order,
// carrying the conversation, and between them reads the file and runs bash as
// the model asks. Whatever an agent spends beyond this is its own overhead.
func runFloor(baseURL string, stdout io.Writer) error {
	messages := []map[string]any{{"role": "user", "content": prompt}}
	for turn := 0; ; turn++ {
		text, calls, err := streamChat(baseURL, messages)
		if err != nil {
			return fmt.Errorf("turn %d: %w", turn, err)
		}
		if len(calls) == 0 {
			_, err := fmt.Fprintln(stdout, text)
			return err
		}
		var wire []map[string]any
		for _, c := range calls {
			wire = append(wire, map[string]any{"id": c.ID, "type": "function",
				"function": map[string]any{"name": c.Function.Name, "arguments": c.Function.Arguments}})
		}
		messages = append(messages, map[string]any{"role": "assistant", "content": text, "tool_calls": wire})
		for _, c := range calls {
			out, err := runTool(c.Function.Name, c.Function.Arguments)
			if err != nil {
				return fmt.Errorf("turn %d: %w", turn, err)
			}
			messages = append(messages, map[string]any{"role": "tool", "tool_call_id": c.ID, "content": out})
		}
	}
}

type toolCallDelta struct {
	Index    int    `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// streamChat sends one streamed request and accumulates its answer.
func streamChat(baseURL string, messages []map[string]any) (string, []toolCallDelta, error) {
	body, err := json.Marshal(map[string]any{"model": modelName, "stream": true, "messages": messages})
	if err != nil {
		return "", nil, err
	}
	resp, err := http.Post(baseURL+"/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		return "", nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return "", nil, fmt.Errorf("chat completions: %s", resp.Status)
	}
	var text strings.Builder
	var calls []toolCallDelta
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content   string          `json:"content"`
					ToolCalls []toolCallDelta `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return "", nil, fmt.Errorf("decode chunk: %w", err)
		}
		for _, ch := range chunk.Choices {
			text.WriteString(ch.Delta.Content)
			for _, d := range ch.Delta.ToolCalls {
				for len(calls) <= d.Index {
					calls = append(calls, toolCallDelta{Index: len(calls)})
				}
				c := &calls[d.Index]
				c.ID += d.ID
				c.Function.Name += d.Function.Name
				c.Function.Arguments += d.Function.Arguments
			}
		}
	}
	return text.String(), calls, sc.Err()
}

func runTool(name, arguments string) (string, error) {
	var args struct {
		Path    string `json:"path"`
		Command string `json:"command"`
	}
	if err := json.Unmarshal([]byte(arguments), &args); err != nil {
		return "", fmt.Errorf("%s arguments: %w", name, err)
	}
	switch name {
	case "read":
		b, err := os.ReadFile(args.Path)
		return string(b), err
	case "bash":
		b, err := exec.Command("bash", "-c", args.Command).CombinedOutput()
		return string(b), err
	}
	return "", fmt.Errorf("unknown tool %q", name)
}
