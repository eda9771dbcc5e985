package llm

import "testing"

func TestToolChoiceCheck(t *testing.T) {
	t.Parallel()
	tools := []ToolSpec{{Name: "get_weather"}}
	tests := []struct {
		choice ToolChoice
		tools  []ToolSpec
		ok     bool
	}{
		{ToolChoice{}, nil, true},
		{ToolChoice{Mode: ToolChoiceNone}, tools, true},
		{ToolChoice{Mode: ToolChoiceRequired}, tools, true},
		{ToolChoice{Mode: ToolChoiceRequired}, nil, false},
		{ToolChoice{Mode: ToolChoiceFunction, Name: "get_weather"}, tools, true},
		{ToolChoice{Mode: ToolChoiceFunction, Name: "other"}, tools, false},
		{ToolChoice{Mode: "sometimes"}, tools, false},
	}
	for _, tc := range tests {
		if err := tc.choice.Check(tc.tools); (err == nil) != tc.ok {
			t.Errorf("%+v with %d tools: %v", tc.choice, len(tc.tools), err)
		}
	}
}
