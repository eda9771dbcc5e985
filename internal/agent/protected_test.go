package agent

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/permission"
	"github.com/etalab-ia/albert-code/internal/tool"
)

type pathParams struct {
	Path string `json:"path"`
}

// A write to a control file in accept-edits asks; with no one to approve (-p) the
// refusal names the rule and the one thing that lifts it, not the usual advice.
func TestControlFileWithNoApproverIsRefusedWithItsRule(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	ran := false
	write := tool.New(tool.Def[pathParams]{
		Info:  tool.Info{Name: "write"},
		Paths: func(p pathParams) []string { return []string{filepath.Join(ws, p.Path)} },
		Run: func(context.Context, tool.Call, pathParams) (tool.Result, error) {
			ran = true
			return tool.Text("written"), nil
		},
	})
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
		call(llm.ToolCall{ID: "1", Name: "write", Arguments: `{"path":".git/config"}`}),
		say("end", llm.Usage{}),
	}}
	acceptEdits := &permission.Policy{WorkDir: ws, Trusted: true, Rules: map[string]permission.Rule{"write": {Level: permission.Always}}}
	a := newAgent(t, p, Options{Policy: acceptEdits}, write)
	a.Run(context.Background(), "go", nil)
	got := a.History()[2]
	for _, want := range []string{"no one can approve", ".git/config: git runs programs", "allow_control"} {
		if !strings.Contains(got.Content, want) {
			t.Errorf("refusal %q does not say %q", got.Content, want)
		}
	}
	if ran || !got.IsError || strings.Contains(got.Content, "auto-approve") {
		t.Fatalf("ran = %v, result = %+v", ran, got)
	}
}
