package agenttool

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// The changes question maps the workspace's edits onto definitions with their
// risk, on an index refreshed first, so the lines are the edited ones.
func TestChangesQuestion(t *testing.T) {
	t.Parallel()
	root, tl := workspace(t, map[string]string{"calc/calc.go": calcSrc}, 0)
	git(t, root, "init", "-q")
	git(t, root, "add", ".")
	git(t, root, "commit", "-qm", "init")
	write(t, root, "calc/calc.go", strings.Replace(calcSrc, "return a + b", "return b + a", 1))

	res := run(t, tl, map[string]any{"question": "changes", "symbol": ""})
	var out struct {
		RiskScore float64 `json:"risk_score"`
		Changed   []struct {
			QName      string  `json:"qualified_name"`
			RiskScore  float64 `json:"risk_score"`
			Dependents int     `json:"dependents"`
		} `json:"changed"`
		Heuristic string     `json:"heuristic"`
		NextSteps []NextStep `json:"next_steps"`
		Index     Refresh    `json:"index"`
	}
	if err := json.Unmarshal([]byte(res.Output), &out); err != nil || res.IsError {
		t.Fatalf("changes: %v\n%s", err, res.Output)
	}
	if len(out.Changed) != 1 || out.Changed[0].QName != "example.com/ws/calc.Add" || out.Changed[0].Dependents != 1 ||
		out.RiskScore <= 0 || !strings.Contains(out.Heuristic, "risk_score") {
		t.Fatalf("changes = %s", res.Output)
	}
	if len(out.NextSteps) != 1 || out.NextSteps[0].Arguments["question"] != "impact" || out.NextSteps[0].Arguments["symbol"] != "example.com/ws/calc.Add" {
		t.Errorf("next_steps = %+v", out.NextSteps)
	}
	res = run(t, tl, map[string]any{"question": "changes", "symbol": "HEAD", "detail": "ids"})
	var ids struct {
		Changed []string `json:"changed"`
	}
	if err := json.Unmarshal([]byte(res.Output), &ids); err != nil || strings.Join(ids.Changed, " ") != "example.com/ws/calc.Add" {
		t.Fatalf("changes, ids: %s", res.Output)
	}
	if res = run(t, tl, map[string]any{"question": "changes", "symbol": "no-such-rev"}); !res.IsError || !strings.Contains(res.Output, "no-such-rev") {
		t.Fatalf("a bad revision: %s", res.Output)
	}
}

// An answer longer than the cap keeps the riskiest changed definitions and says
// how many there were.
func TestChangesQuestionIsCapped(t *testing.T) {
	t.Parallel()
	var src strings.Builder
	src.WriteString("package calc\n")
	for i := range 40 {
		src.WriteString("\nfunc F" + string(rune('A'+i%26)) + strings.Repeat("x", i) + "() int { return 1 }\n")
	}
	root, tl := workspace(t, map[string]string{"calc/calc.go": src.String()}, 6000)
	git(t, root, "init", "-q")
	git(t, root, "add", ".")
	git(t, root, "commit", "-qm", "init")
	write(t, root, "calc/calc.go", strings.ReplaceAll(src.String(), "return 1", "return 2"))
	res := run(t, tl, map[string]any{"question": "changes", "symbol": ""})
	var out struct {
		Changed      []json.RawMessage `json:"changed"`
		ChangedTotal int               `json:"changed_total"`
		Note         string            `json:"note"`
	}
	if err := json.Unmarshal([]byte(res.Output), &out); err != nil || !res.Truncated || len(res.Output) > 6000 ||
		out.ChangedTotal != 40 || len(out.Changed) == 0 || len(out.Changed) >= 40 || !strings.Contains(out.Note, "of 40") {
		t.Fatalf("capped changes (%d bytes, truncated %v): %v\n%s", len(res.Output), res.Truncated, err, res.Output)
	}
}
