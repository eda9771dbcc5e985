package telegram

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"
)

// keyboard decodes a sent message's inline keyboard.
func keyboard(t *testing.T, markup string) [][]models.InlineKeyboardButton {
	t.Helper()
	var kb models.InlineKeyboardMarkup
	if err := json.Unmarshal([]byte(markup), &kb); err != nil {
		t.Fatalf("reply_markup %q: %v", markup, err)
	}
	return kb.InlineKeyboard
}

func TestModelKeyboardAndCallbacks(t *testing.T) {
	t.Parallel()
	long := "openrouter/meta-llama/Llama-3.3-70B-Instruct-Turbo-with-a-very-long-suffix"
	f := newFixture(t, allowA+"default: {model: albert-large}\n", func(o *Options) {
		o.Models = []string{"albert-large", long}
	})
	f.api.SendText(chatA, alice, "/model")
	contains(t, f.last(chatA, 1), "model: albert-large (from yaml)")
	menu := f.api.Messages(chatA)[0]
	kb := keyboard(t, menu.ReplyMarkup)
	if kb[0][0].Text != "✓ albert-large" || kb[0][1].Text != long || !strings.Contains(kb[1][0].Text, "reset") {
		t.Errorf("keyboard %+v", kb)
	}
	f.api.PressButton(chatA, alice, menu.MessageID, kb[0][1].CallbackData)
	waitFor(t, func() bool { return f.api.Messages(chatA)[0].Edits == 1 })
	edited := f.api.Messages(chatA)[0]
	contains(t, edited.Plain, "model: "+long+" (overridden)")
	if kb := keyboard(t, edited.ReplyMarkup); kb[0][1].Text != "✓ "+long {
		t.Errorf("the ✓ did not move: %+v", kb)
	}
	f.api.SendText(chatA, alice, "hi")
	f.last(chatA, 2)
	if got := f.agent.requests()[0].Model; got != long {
		t.Errorf("run with model %q", got)
	}
	f.api.PressButton(chatA, alice, menu.MessageID, kb[1][0].CallbackData)
	waitFor(t, func() bool { return f.api.Messages(chatA)[0].Edits == 2 })
	contains(t, f.api.Messages(chatA)[0].Plain, "model: albert-large (from yaml)")
	answers := f.api.Calls("answerCallbackQuery")
	if len(answers) != 2 || answers[0].Params["text"] != "model: "+long || answers[1].Params["text"] != "reset to the YAML default" {
		t.Errorf("answers %+v", answers)
	}
}

func TestModelAndEffortByName(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, func(o *Options) {
		o.Models = []string{"Mistral-Large", "albert-small"}
		o.Efforts = []string{"low", "high"}
	})
	steps := []struct{ send, want string }{
		{"/model mistral-large", "model: Mistral-Large (overridden)"}, // the case of the list is kept
		{"/model gpt-9", `unknown model "gpt-9"; choose one of: Mistral-Large, albert-small`},
		{"/effort high", "effort: high (overridden)"},
		{"/effort", "effort: high (overridden)"},
		{"/config", "effort: high (overridden)\nmodel: Mistral-Large (overridden)"},
		{"/model reset", "override cleared; model: the agent's default"},
		{"/effort none", "override cleared; effort: the agent's default"},
	}
	for i, s := range steps {
		f.api.SendText(chatA, alice, s.send)
		contains(t, f.last(chatA, i+1), s.want)
	}
}

func TestModelWithoutAList(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, nil)
	f.api.SendText(chatA, alice, "/model")
	contains(t, f.last(chatA, 1), "no list to choose from: set ALBERT_CODE_AVAILABLE_MODELS")
	f.api.SendText(chatA, alice, "/model Any-Model-Id")
	contains(t, f.last(chatA, 2), "model: Any-Model-Id (overridden)")
}

func TestSystemPromptCommands(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA+"default: {system_prompt: from the yaml}\n", nil)
	steps := []struct{ send, want string }{
		{"/system_prompt", "system_prompt (from yaml):\nfrom the yaml"},
		{"/system_prompt You are terse.\nAnswer in French.", "override saved (32 chars)"},
		{"/system_prompt", "system_prompt (overridden):\nYou are terse.\nAnswer in French."},
		{"/append_system_prompt", "no append_system_prompt set. usage:"},
		{"/append_system_prompt Cite files.", "override saved (11 chars)"},
	}
	for i, s := range steps {
		f.api.SendText(chatA, alice, s.send)
		contains(t, f.last(chatA, i+1), s.want)
	}
	f.api.SendText(chatA, alice, "go")
	f.last(chatA, len(steps)+1)
	r := f.agent.requests()[0]
	if r.SystemPrompt != "You are terse.\nAnswer in French." || !strings.HasSuffix(r.AppendSystemPrompt, "\n\nCite files.") {
		t.Errorf("request %+v", r)
	}
	f.api.SendText(chatA, alice, "/system_prompt __reset__")
	contains(t, f.last(chatA, len(steps)+2), "override cleared")
	f.api.SendText(chatA, alice, "/system_prompt")
	contains(t, f.last(chatA, len(steps)+3), "(from yaml)")
	data, err := os.ReadFile(f.opts.Overrides.path)
	if err != nil || !strings.Contains(string(data), `"append_system_prompt": "Cite files."`) || strings.Contains(string(data), "terse") {
		t.Errorf("overrides file %s %v", data, err)
	}
}

func TestStartHelpStatusAndMenu(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, nil)
	f.api.SendText(chatA, alice, "/start")
	contains(t, f.last(chatA, 1), "albert-code bot ready (agent: fake)")
	f.api.SendText(chatA, alice, "/help")
	help := f.last(chatA, 2)
	for _, c := range commands {
		contains(t, help, "/"+c.name+" - ")
	}
	f.api.SendText(chatA, alice, "/status")
	contains(t, f.last(chatA, 3), "all clear")
	cmds := f.api.Commands()
	if len(cmds) != len(commands) || cmds[0].Command != "model" {
		t.Errorf("menu %+v", cmds)
	}
}

func TestReload(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, nil)
	if err := os.WriteFile(f.opts.SettingsPath, []byte("allowed_chats: [1001, 1002]\ndefault: {model: new}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.api.SendText(chatA, alice, "/reload")
	contains(t, f.last(chatA, 1), "config reloaded")
	f.api.SendText(chatB, alice, "/config")
	contains(t, f.last(chatB, 1), "model: new")
	if err := os.WriteFile(f.opts.SettingsPath, []byte("allowed_chats: [1001]\nchats: {1001: {modle: x}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.api.SendText(chatA, alice, "/reload")
	contains(t, f.last(chatA, 2), "reload failed, the previous configuration stays:\n"+f.opts.SettingsPath+":2: chats.1001.modle: unknown key")
	f.api.SendText(chatB, alice, "/config") // chat B is still allowed
	contains(t, f.last(chatB, 2), "chat 1002:")
}

func TestFetchStaysInTheChatWorkspace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "allowed_chats: [1001, 1002]\n", nil)
	for chat, name := range map[int64]string{chatA: "mine.txt", chatB: "secret.txt"} {
		ws, err := f.root.Workspace(workspaceName(chat, ChatConfig{}), true)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, name), []byte("content of "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f.api.SendText(chatA, alice, "/fetch mine.txt")
	sent := f.api.Messages(chatA)
	waitFor(t, func() bool { sent = f.api.Messages(chatA); return len(sent) == 1 })
	if sent[0].FileName != "mine.txt" || string(sent[0].File) != "content of mine.txt" {
		t.Errorf("sent %+v", sent[0])
	}
	f.api.SendText(chatA, alice, "/fetch ../chat_1002/secret.txt")
	contains(t, f.last(chatA, 2), "refused, outside this chat's workspace")
	f.api.SendText(chatA, alice, "/fetch nothing.txt")
	contains(t, f.last(chatA, 3), "not found: nothing.txt")
	f.api.SendText(chatA, alice, "/fetch")
	contains(t, f.last(chatA, 4), "usage: /fetch")
}
