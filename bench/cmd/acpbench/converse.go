package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

type measurement struct {
	// All are measured from the moment initialize is written.
	initialized, firstUpdate, firstChunk time.Duration
}

// converse runs albert-acp in dir against the model at baseURL: initialize,
// session/new, one prompt, then it closes stdin and waits for the process.
func converse(ctx context.Context, bin, dir, baseURL string) (measurement, error) {
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return measurement{}, err
	}
	cmd := exec.CommandContext(ctx, bin, "--trust")
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(dir, "home"), "ALBERT_CODE_HOME="+filepath.Join(dir, "home", ".albert-code"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "xdg"), "ALBERT_API_KEY=bench", "ALBERT_CODE_BASE_URL="+baseURL)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return measurement{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return measurement{}, err
	}
	if err := cmd.Start(); err != nil {
		return measurement{}, err
	}
	defer func() { _ = cmd.Wait() }()
	defer stdin.Close()

	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 1<<24)
	send := func(id int, method string, params any) error {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		_, err := stdin.Write(append(b, '\n'))
		return err
	}
	var m measurement
	start := time.Now()
	onUpdate := func(kind string) {
		if m.firstUpdate == 0 {
			m.firstUpdate = time.Since(start)
		}
		if kind == "agent_message_chunk" && m.firstChunk == 0 {
			m.firstChunk = time.Since(start)
		}
	}
	if err := send(1, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}); err != nil {
		return m, err
	}
	if _, err := await(lines, 1, onUpdate); err != nil {
		return m, err
	}
	m.initialized = time.Since(start)
	if err := send(2, "session/new", map[string]any{"cwd": work, "mcpServers": []any{}}); err != nil {
		return m, err
	}
	res, err := await(lines, 2, onUpdate)
	if err != nil {
		return m, err
	}
	var created struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(res, &created); err != nil || created.SessionID == "" {
		return m, fmt.Errorf("session/new answered %s", res)
	}
	if err := send(3, "session/prompt", map[string]any{"sessionId": created.SessionID, "prompt": []any{map[string]any{"type": "text", "text": "hello"}}}); err != nil {
		return m, err
	}
	if _, err := await(lines, 3, onUpdate); err != nil {
		return m, err
	}
	if m.firstUpdate == 0 || m.firstChunk == 0 {
		return m, errors.New("no session/update or no agent_message_chunk arrived")
	}
	return m, nil
}

// await reads messages until the response to id, calling onUpdate with the kind of
// each session/update on the way (the updates after session/new arrive during the
// prompt or before it).
func await(lines *bufio.Scanner, id int, onUpdate func(kind string)) (json.RawMessage, error) {
	for lines.Scan() {
		var msg struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(lines.Bytes(), &msg); err != nil {
			return nil, fmt.Errorf("albert-acp wrote a line that is not JSON: %q", lines.Text())
		}
		if msg.Method == "session/update" {
			if onUpdate != nil {
				var p struct {
					Update struct {
						Kind string `json:"sessionUpdate"`
					} `json:"update"`
				}
				_ = json.Unmarshal(msg.Params, &p)
				onUpdate(p.Update.Kind)
			}
			continue
		}
		if msg.ID != nil && *msg.ID == id {
			if msg.Error != nil {
				return nil, fmt.Errorf("request %d failed: %s", id, msg.Error)
			}
			return msg.Result, nil
		}
	}
	if err := lines.Err(); err != nil {
		return nil, err
	}
	return nil, io.ErrUnexpectedEOF
}
