package llm

import "fmt"

// ToolChoiceMode says whether the model may, must or must not call a tool.
type ToolChoiceMode string

const (
	// ToolChoiceAuto lets the model choose between answering and calling tools.
	ToolChoiceAuto ToolChoiceMode = "auto"
	// ToolChoiceNone forbids tool calls although tools are described.
	ToolChoiceNone ToolChoiceMode = "none"
	// ToolChoiceRequired makes the model call at least one tool.
	ToolChoiceRequired ToolChoiceMode = "required"
	// ToolChoiceFunction makes the model call the tool named by ToolChoice.Name.
	ToolChoiceFunction ToolChoiceMode = "function"
)

// ToolChoice constrains the model's use of a request's tools. The zero value is auto.
type ToolChoice struct {
	Mode ToolChoiceMode
	// Name is the tool to call when Mode is ToolChoiceFunction.
	Name string
}

// Check reports a choice that cannot be sent with tools: an unknown mode, or a named
// tool that is not among them.
func (c ToolChoice) Check(tools []ToolSpec) error {
	switch c.Mode {
	case "", ToolChoiceAuto, ToolChoiceNone:
		return nil
	case ToolChoiceRequired:
		if len(tools) == 0 {
			return fmt.Errorf("tool_choice required: no tools were given")
		}
		return nil
	case ToolChoiceFunction:
		for _, t := range tools {
			if t.Name == c.Name {
				return nil
			}
		}
		return fmt.Errorf("tool_choice names the function %q, which is not among the tools", c.Name)
	}
	return fmt.Errorf("tool_choice %q: want auto, none, required or a function", c.Mode)
}
