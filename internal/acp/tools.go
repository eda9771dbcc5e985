package acp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// toolKind tells the editor which icon and behaviour fits a tool.
func toolKind(name string) sdk.ToolKind {
	switch name {
	case "read":
		return sdk.ToolKindRead
	case "write", "edit":
		return sdk.ToolKindEdit
	case "bash":
		return sdk.ToolKindExecute
	case "grep", "glob", "web_search", "code_graph":
		return sdk.ToolKindSearch
	case "web_fetch":
		return sdk.ToolKindFetch
	case "todo":
		return sdk.ToolKindThink
	}
	return sdk.ToolKindOther
}

// toolArgs are the argument fields the titles and locations use.
type toolArgs struct {
	Path        string `json:"path"`
	Offset      int    `json:"offset"`
	Command     string `json:"command"`
	Description string `json:"description"`
	Pattern     string `json:"pattern"`
	URL         string `json:"url"`
	Query       string `json:"query"`
}

func parseArgs(raw json.RawMessage) toolArgs {
	var a toolArgs
	_ = json.Unmarshal(raw, &a)
	return a
}

// toolTitle is the one line an editor shows for a call.
func toolTitle(name string, raw json.RawMessage, cwd string) string {
	a := parseArgs(raw)
	rel := displayPath(a.Path, cwd)
	switch {
	case name == "read" && a.Path != "":
		return "Read " + rel
	case name == "write" && a.Path != "":
		return "Write " + rel
	case name == "edit" && a.Path != "":
		return "Edit " + rel
	case name == "bash" && a.Command != "":
		return "Run " + oneLine(a.Command, 80)
	case (name == "grep" || name == "glob") && a.Pattern != "":
		return fmt.Sprintf("%s %s", name, oneLine(a.Pattern, 60))
	case name == "web_fetch" && a.URL != "":
		return "Fetch " + oneLine(a.URL, 80)
	case name == "web_search" && a.Query != "":
		return "Search the web: " + oneLine(a.Query, 60)
	case name == "todo":
		return "Update the todo list"
	case name == "task" && a.Description != "":
		return "Sub-agent: " + oneLine(a.Description, 60)
	}
	return name
}

// toolLocations lets the editor follow the files the agent touches.
func toolLocations(name string, raw json.RawMessage, cwd string) []sdk.ToolCallLocation {
	if name != "read" && name != "write" && name != "edit" {
		return nil
	}
	a := parseArgs(raw)
	if a.Path == "" {
		return nil
	}
	loc := sdk.ToolCallLocation{Path: absPath(a.Path, cwd)}
	if name == "read" && a.Offset > 0 {
		loc.Line = sdk.Ptr(a.Offset)
	}
	return []sdk.ToolCallLocation{loc}
}

// resultContent is what the editor shows for a finished call: a diff for a change,
// the output as text otherwise.
func resultContent(name, output string, display any, cwd string) []sdk.ToolCallContent {
	if d, ok := display.(builtin.FileDiff); ok {
		return []sdk.ToolCallContent{diffContent(d, cwd)}
	}
	if d, ok := display.(*builtin.FileDiff); ok && d != nil {
		return []sdk.ToolCallContent{diffContent(*d, cwd)}
	}
	if output == "" {
		return nil
	}
	if name == "bash" {
		output = "```\n" + strings.TrimRight(output, "\n") + "\n```"
	}
	return []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(output))}
}

func diffContent(d builtin.FileDiff, cwd string) sdk.ToolCallContent {
	if d.Created {
		return sdk.ToolDiffContent(absPath(d.Path, cwd), d.New)
	}
	return sdk.ToolDiffContent(absPath(d.Path, cwd), d.New, d.Old)
}

// planEntries turns the todo tool's list into a plan. Cancelled items are left out:
// a plan says what is still meant to happen.
func planEntries(display any) ([]sdk.PlanEntry, bool) {
	items, ok := display.([]builtin.TodoItem)
	if !ok {
		return nil, false
	}
	entries := []sdk.PlanEntry{}
	for _, it := range items {
		var st sdk.PlanEntryStatus
		switch it.Status {
		case builtin.TodoPending:
			st = sdk.PlanEntryStatusPending
		case builtin.TodoInProgress:
			st = sdk.PlanEntryStatusInProgress
		case builtin.TodoCompleted:
			st = sdk.PlanEntryStatusCompleted
		default:
			continue
		}
		entries = append(entries, sdk.PlanEntry{Content: it.Content, Status: st, Priority: sdk.PlanEntryPriorityMedium})
	}
	return entries, true
}

// rawInput is the call's arguments as JSON the editor can show; arguments that are
// not valid JSON are passed as a string.
func rawInput(raw json.RawMessage) any {
	var v any
	if json.Unmarshal(raw, &v) == nil {
		return v
	}
	return string(raw)
}

func absPath(p, cwd string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(cwd, p)
}

func displayPath(p, cwd string) string {
	if rel, err := filepath.Rel(cwd, absPath(p, cwd)); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}
