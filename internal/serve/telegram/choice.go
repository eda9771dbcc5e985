package telegram

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

func (b *Bot) options(key string) []string {
	if key == KeyModel {
		return b.opts.Models
	}
	return b.opts.Efforts
}

// current describes the chat's value of key and where it comes from.
func (b *Bot) current(chat int64, key string) (value, label string) {
	if v := b.opts.Overrides.Get(chat)[key]; v != "" {
		return v, fmt.Sprintf("%s: %s (overridden)", key, v)
	}
	y := b.currentSettings().Chat(chat)
	v := y.Model
	if key == KeyEffort {
		v = y.Effort
	}
	if v == "" {
		return "", key + ": the agent's default"
	}
	return v, fmt.Sprintf("%s: %s (from yaml)", key, v)
}

// choice is /model and /effort: a keyboard without an argument, else set it.
func (b *Bot) choice(ctx context.Context, chat int64, key, arg string) {
	opts := b.options(key)
	if arg == "" {
		value, label := b.current(chat, key)
		if len(opts) == 0 {
			env := "ALBERT_CODE_AVAILABLE_MODELS"
			if key == KeyEffort {
				env = "ALBERT_CODE_AVAILABLE_EFFORTS"
			}
			b.say(ctx, chat, fmt.Sprintf("%s\nno list to choose from: set %s (comma separated), or give the name: /%s <name>", label, env, key))
			return
		}
		_, err := b.client.SendMessage(ctx, &bot.SendMessageParams{ChatID: chat, Text: label, ReplyMarkup: choiceKeyboard(key, opts, value)})
		if err != nil {
			b.log.Warn("telegram: keyboard not sent", "chat", chat, "err", err)
		}
		return
	}
	if isReset(arg) {
		b.setOverride(ctx, chat, key, "")
		return
	}
	value, ok := match(opts, arg)
	if !ok {
		b.say(ctx, chat, fmt.Sprintf("unknown %s %q; choose one of: %s", key, arg, strings.Join(opts, ", ")))
		return
	}
	b.setOverride(ctx, chat, key, value)
}

// match finds arg among options: exactly, else ignoring case when that is not
// ambiguous. The original lower-cased every name, which broke mixed-case model
// ids. No options means any name is let through.
func match(options []string, arg string) (string, bool) {
	if len(options) == 0 {
		return arg, true
	}
	found := ""
	for _, o := range options {
		if o == arg {
			return o, true
		}
		if strings.EqualFold(o, arg) {
			if found != "" {
				return "", false
			}
			found = o
		}
	}
	return found, found != ""
}

func (b *Bot) setOverride(ctx context.Context, chat int64, key, value string) {
	if err := b.opts.Overrides.Set(chat, key, value); err != nil {
		b.log.Error("telegram: override not saved", "chat", chat, "key", key, "err", err)
		b.say(ctx, chat, "not saved: "+err.Error())
		return
	}
	_, label := b.current(chat, key)
	if value == "" {
		label = "override cleared; " + label
	}
	b.say(ctx, chat, label)
}

// prompt is /system_prompt and /append_system_prompt: show, reset or set.
func (b *Bot) prompt(ctx context.Context, chat int64, key, arg string) {
	switch {
	case arg == "":
		if v := b.opts.Overrides.Get(chat)[key]; v != "" {
			b.say(ctx, chat, key+" (overridden):\n"+v)
			return
		}
		y := b.currentSettings().Chat(chat)
		v := y.SystemPrompt
		if key == KeyAppendSystemPrompt {
			v = y.AppendSystemPrompt
		}
		if v != "" {
			b.say(ctx, chat, key+" (from yaml):\n"+v)
			return
		}
		b.say(ctx, chat, fmt.Sprintf("no %s set. usage: /%s <text> to set it, /%s reset to clear it", key, key, key))
	case isReset(arg):
		if err := b.opts.Overrides.Set(chat, key, ""); err != nil {
			b.say(ctx, chat, "not saved: "+err.Error())
			return
		}
		b.say(ctx, chat, "override cleared")
	default:
		if err := b.opts.Overrides.Set(chat, key, arg); err != nil {
			b.say(ctx, chat, "not saved: "+err.Error())
			return
		}
		b.say(ctx, chat, fmt.Sprintf("override saved (%d chars)", len([]rune(arg))))
	}
}

// onCallback handles a keyboard press: refused unless allowed, else the choice
// is saved and the keyboard redrawn with its ✓ moved.
func (b *Bot) onCallback(ctx context.Context, q *models.CallbackQuery) {
	answer := func(text string) {
		if _, err := b.client.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID, Text: text}); err != nil {
			b.log.Warn("telegram: callback not answered", "err", err)
		}
	}
	msg := q.Message.Message
	var chat int64
	switch {
	case msg != nil:
		chat = msg.Chat.ID
	case q.Message.InaccessibleMessage != nil:
		chat = q.Message.InaccessibleMessage.Chat.ID
	}
	if !b.currentSettings().Allowed(chat, q.From.ID) {
		b.log.Warn("telegram: button pressed by a chat or user not allowed", "chat", chat, "user", q.From.ID)
		answer("not allowed")
		return
	}
	if msg == nil {
		answer("this menu is too old: send the command again")
		return
	}
	key, option, reset, err := parseCallback(q.Data, b.options)
	if err != nil {
		answer(err.Error())
		return
	}
	if err := b.opts.Overrides.Set(chat, key, option); err != nil {
		b.log.Error("telegram: override not saved", "chat", chat, "key", key, "err", err)
		answer("not saved: " + err.Error())
		return
	}
	value, label := b.current(chat, key)
	if reset {
		answer("reset to the YAML default")
	} else {
		answer(key + ": " + value)
	}
	_, err = b.client.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: chat, MessageID: msg.ID, Text: label,
		ReplyMarkup: choiceKeyboard(key, b.options(key), value)})
	if err != nil {
		b.log.Warn("telegram: keyboard not redrawn", "chat", chat, "err", err)
	}
}
