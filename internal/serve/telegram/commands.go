package telegram

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
)

// commands are the bot's commands with their menu descriptions, in menu order.
var commands = []struct{ name, help string }{
	{"model", "choose the model of this chat"},
	{"effort", "choose the reasoning effort"},
	{"system_prompt", "show, set or reset the system prompt"},
	{"append_system_prompt", "show, set or reset the text added to it"},
	{"fetch", "send a file of this chat's workspace: /fetch path"},
	{"cancel", "stop the current run and empty the queue"},
	{"status", "is this chat running, and for how long"},
	{"config", "this chat's settings"},
	{"reload", "re-read the bot's YAML file"},
	{"help", "list the commands"},
}

func menu() []models.BotCommand {
	out := make([]models.BotCommand, len(commands))
	for i, c := range commands {
		out[i] = models.BotCommand{Command: c.name, Description: c.help}
	}
	return out
}

// parseCommand splits "/name@bot arg" into name and arg. A command addressed to
// another bot (in a group) is not ours: it is taken as text, like Telegram does.
func (b *Bot) parseCommand(text string) (name, arg string, ok bool) {
	if !strings.HasPrefix(text, "/") {
		return "", "", false
	}
	head, rest, _ := strings.Cut(text[1:], " ")
	if i := strings.IndexAny(head, "\n"); i >= 0 {
		head, rest = head[:i], head[i+1:]+" "+rest
	}
	head, to, addressed := strings.Cut(head, "@")
	b.mu.Lock()
	me := b.username
	b.mu.Unlock()
	if addressed && me != "" && !strings.EqualFold(to, me) {
		return "", "", false
	}
	known := slices.ContainsFunc(commands, func(c struct{ name, help string }) bool { return c.name == head }) || head == "start"
	if !known {
		return "", "", false
	}
	return head, strings.TrimSpace(rest), true
}

func (b *Bot) command(ctx context.Context, m *models.Message, name, arg string) {
	chat := m.Chat.ID
	switch name {
	case "start":
		b.say(ctx, chat, fmt.Sprintf("albert-code bot ready (agent: %s). Send a message to start; /help lists the commands.", b.opts.AgentName))
	case "help":
		var lines []string
		for _, c := range commands {
			lines = append(lines, "/"+c.name+" - "+c.help)
		}
		b.say(ctx, chat, "Send text or a file and the agent answers in this chat's workspace. Reply to a message to give it as context.\n\n"+strings.Join(lines, "\n"))
	case "model", "effort":
		b.choice(ctx, chat, name, arg)
	case "system_prompt", "append_system_prompt":
		b.prompt(ctx, chat, name, arg)
	case "cancel":
		running, dropped := b.cancelChat(chat)
		switch {
		case !running:
			b.say(ctx, chat, "nothing running")
		case dropped > 0:
			b.say(ctx, chat, fmt.Sprintf("cancelled; %d queued messages dropped", dropped))
		default:
			b.say(ctx, chat, "cancelled")
		}
	case "status":
		running, since, queued := b.chatStatus(chat)
		if !running {
			b.say(ctx, chat, "all clear: nothing running in this chat")
			return
		}
		b.say(ctx, chat, fmt.Sprintf("running for %s, %d queued", time.Since(since).Round(time.Second), queued))
	case "config":
		b.say(ctx, chat, b.describeConfig(chat))
	case "reload":
		b.reload(ctx, chat)
	case "fetch":
		if arg == "" {
			b.say(ctx, chat, "usage: /fetch path/in/the/workspace")
			return
		}
		cfg := b.chatConfig(chat)
		ws, err := b.opts.Root.Workspace(workspaceName(chat, cfg), true)
		if err != nil {
			b.say(ctx, chat, "workspace error: "+err.Error())
			return
		}
		b.jobs.Go(func() { b.sendWorkspaceFile(b.runCtx, chat, ws, arg) })
	}
}

func (b *Bot) reload(ctx context.Context, chat int64) {
	if b.opts.SettingsPath == "" {
		b.say(ctx, chat, "reload failed: the bot has no YAML file to re-read")
		return
	}
	s, err := LoadSettings(b.opts.SettingsPath)
	if err != nil {
		b.log.Warn("telegram: reload failed", "err", err)
		b.say(ctx, chat, "reload failed, the previous configuration stays:\n"+err.Error())
		return
	}
	b.mu.Lock()
	b.settings = s
	b.mu.Unlock()
	b.log.Info("telegram: configuration reloaded", "file", b.opts.SettingsPath)
	b.say(ctx, chat, "config reloaded")
}

// describeConfig lists the chat's merged settings, each with where it comes from.
func (b *Bot) describeConfig(chat int64) string {
	cfg := b.chatConfig(chat)
	over := b.opts.Overrides.Get(chat)
	origin := func(key string) string {
		if _, ok := over[key]; ok {
			return " (overridden)"
		}
		return ""
	}
	cont := cfg.Continue == nil || *cfg.Continue
	lines := []string{
		fmt.Sprintf("chat %d:", chat),
		"append_system_prompt: " + cmp.Or(clip(cfg.AppendSystemPrompt), "(none)") + origin(KeyAppendSystemPrompt),
		fmt.Sprintf("continue: %t", cont),
		"effort: " + cmp.Or(cfg.Effort, "(agent default)") + origin(KeyEffort),
		"model: " + cmp.Or(cfg.Model, "(agent default)") + origin(KeyModel),
		"system_prompt: " + cmp.Or(clip(cfg.SystemPrompt), "(agent default)") + origin(KeySystemPrompt),
		"workspace: " + workspaceName(chat, cfg),
	}
	return strings.Join(lines, "\n")
}

// clip shortens a prompt for a one-line listing.
func clip(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
