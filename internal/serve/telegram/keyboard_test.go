package telegram

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

func TestCallbackDataFitsAndRoundTrips(t *testing.T) {
	t.Parallel()
	models := []string{"albert-small", strings.Repeat("openrouter/meta-llama/Llama-3.3-70B-Instruct-Turbo-", 3), "Mistral-Large"}
	options := func(string) []string { return models }
	kb := choiceKeyboard(KeyModel, models, models[1])
	var buttons int
	for _, row := range kb.InlineKeyboard {
		for _, btn := range row {
			buttons++
			if len(btn.CallbackData) > maxCallbackData {
				t.Errorf("callback data %q is %d bytes", btn.CallbackData, len(btn.CallbackData))
			}
			key, option, reset, err := parseCallback(btn.CallbackData, options)
			if err != nil || key != KeyModel {
				t.Errorf("%q: %v", btn.CallbackData, err)
			}
			if strings.Contains(btn.Text, "reset") != reset {
				t.Errorf("button %q reset=%t", btn.Text, reset)
			}
			if !reset && strings.TrimPrefix(btn.Text, "✓ ") != option {
				t.Errorf("button %q chooses %q", btn.Text, option)
			}
		}
	}
	if buttons != len(models)+1 || !strings.HasPrefix(kb.InlineKeyboard[0][1].Text, "✓ ") {
		t.Errorf("keyboard %+v", kb.InlineKeyboard)
	}
	// A keyboard drawn before the list changed is refused, not misread.
	stale := callbackData(KeyModel, 1, "gone-model")
	if _, _, _, err := parseCallback(stale, options); err == nil || !strings.Contains(err.Error(), "out of date") {
		t.Errorf("stale button: %v", err)
	}
	for _, bad := range []string{"system_prompt:0:x", "model:9:x", "model", "model:x:y:z"} {
		if _, _, _, err := parseCallback(bad, options); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestResetWordsAndMatch(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"__reset__", "default", "RESET", "clear", "none"} {
		if !isReset(w) {
			t.Errorf("%q is not a reset word", w)
		}
	}
	opts := []string{"Mistral-Large", "albert-small", "ABC", "abc"}
	for arg, want := range map[string]string{"Mistral-Large": "Mistral-Large", "mistral-large": "Mistral-Large", "abc": "abc", "Abc": "", "nope": ""} {
		got, ok := match(opts, arg)
		if got != want || ok != (want != "") {
			t.Errorf("match(%q) = %q %t, want %q", arg, got, ok, want)
		}
	}
	if got, ok := match(nil, "Any-Model"); !ok || got != "Any-Model" {
		t.Errorf("no list: %q %t", got, ok)
	}
}

func TestAnswerText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		res  backend.Result
		want string
	}{
		{backend.Result{Text: " hi \n"}, "hi"},
		{backend.Result{ExitCode: 3, Stderr: "boom"}, "(agent exited with code 3 and no output)\n\n```\nboom\n```"},
		{backend.Result{ProviderError: "quota exhausted"}, "The model provider refused the request: quota exhausted"},
		{backend.Result{ExitCode: 1, AgentError: "claude stopped: error_max_turns"}, "The agent failed: claude stopped: error_max_turns"},
		{backend.Result{Text: "partial", Stopped: "timeout"}, "partial\n\nThe run was stopped (timeout)."},
		{backend.Result{Stderr: strings.Repeat("é", stderrTail)}, "…é"},
	}
	for _, tc := range tests {
		if got := answerText(tc.res); !strings.HasPrefix(got, tc.want) && !strings.Contains(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.res, got, tc.want)
		}
	}
}

func TestParseCommand(t *testing.T) {
	t.Parallel()
	b := &Bot{username: "albert_bot"}
	tests := []struct {
		text, name, arg string
		ok              bool
	}{
		{"/model", "model", "", true},
		{"/model@albert_bot gpt-x", "model", "gpt-x", true},
		{"/model@Albert_Bot gpt-x", "model", "gpt-x", true},
		{"/model@other_bot gpt-x", "", "", false},
		{"/system_prompt line one\nline two", "system_prompt", "line one\nline two", true},
		{"/system_prompt\nfirst line", "system_prompt", "first line", true},
		{"/fetch out/a b.txt", "fetch", "out/a b.txt", true},
		{"/start", "start", "", true},
		{"/unknown thing", "", "", false},
		{"not /model", "", "", false},
	}
	for _, tc := range tests {
		name, arg, ok := b.parseCommand(tc.text)
		if name != tc.name || arg != tc.arg || ok != tc.ok {
			t.Errorf("%q: %q %q %t", tc.text, name, arg, ok)
		}
	}
}
