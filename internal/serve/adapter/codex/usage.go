package codex

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// codexUsageBefore is the token usage a resumed thread had before this run. Codex's
// turn.completed gives the thread's running total, not the run's: a continued run
// would be billed for the whole thread. The rollout
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread>.jsonl) records a token_count
// with the total after each model call and a task_started at each run's start: the
// total before the last task_started is what earlier runs used. Zero when the
// rollout cannot be found or read (the total is then reported as it is).
func codexUsageBefore(home, thread string) backend.Usage {
	if home == "" || thread == "" {
		return backend.Usage{}
	}
	paths, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "rollout-*-"+thread+".jsonl"))
	if len(paths) != 1 {
		return backend.Usage{}
	}
	f, err := os.Open(paths[0])
	if err != nil {
		return backend.Usage{}
	}
	defer f.Close()
	var total, before backend.Usage
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20) // a rollout line holds whole tool outputs
	for sc.Scan() {
		var r struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
				Info *struct {
					Total json.RawMessage `json:"total_token_usage"`
				} `json:"info"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Type != "event_msg" {
			continue
		}
		switch {
		case r.Payload.Type == "task_started":
			before = total
		case r.Payload.Type == "token_count" && r.Payload.Info != nil:
			total = cli.UsageFrom(r.Payload.Info.Total)
		}
	}
	return before
}

// usageMinus is u less what was counted before; a counter never goes below zero.
func usageMinus(u, before backend.Usage) backend.Usage {
	sub := func(a, b int64) int64 { return max(a-b, 0) }
	u.InputTokens = sub(u.InputTokens, before.InputTokens)
	u.OutputTokens = sub(u.OutputTokens, before.OutputTokens)
	u.CacheReadTokens = sub(u.CacheReadTokens, before.CacheReadTokens)
	u.CacheWriteTokens = sub(u.CacheWriteTokens, before.CacheWriteTokens)
	u.ReasoningTokens = sub(u.ReasoningTokens, before.ReasoningTokens)
	return u
}
