package slash

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config"
)

// ConfigEditor gives /config set, /config unset and /model --save the
// configuration whose files they change, as freshly read as the face can.
type ConfigEditor interface {
	EditableConfig() (*config.Config, error)
}

// ConfigDialog opens the face's settings editor (/config without arguments).
type ConfigDialog interface {
	OpenConfigEditor()
}

const configUsage = "want nothing (the editor), `show`, `set KEY VALUE [--global|--project]` or `unset KEY [--global|--project]`"

func runConfig(ctx context.Context, h Host, args string) error {
	words, target, explicit, err := configArgs(args)
	if err != nil {
		return err
	}
	verb := ""
	if len(words) > 0 {
		verb = strings.ToLower(words[0])
	}
	switch {
	case verb == "" && !explicit:
		if d, ok := h.(ConfigDialog); ok {
			d.OpenConfigEditor()
			return nil
		}
		return showConfig(h)
	case verb == "show" && len(words) == 1:
		return showConfig(h)
	case verb == "set" && len(words) >= 3:
		return SetConfig(ctx, h, words[1], strings.Join(words[2:], " "), target)
	case verb == "set" && len(words) == 2:
		return fmt.Errorf("/config set %s: no value; to go back to the default, /config unset %s", words[1], words[1])
	case verb == "unset" && len(words) == 2:
		return unsetConfig(ctx, h, words[1], target, explicit)
	}
	return fmt.Errorf("/config %s: %s", args, configUsage)
}

// configArgs splits args into words (a quoted word may hold spaces or be empty)
// and takes out --global or --project.
func configArgs(args string) (words []string, target config.Target, explicit bool, err error) {
	var quote rune
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	for _, r := range args {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			flush()
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, 0, false, fmt.Errorf("/config %s: a quote is not closed", args)
	}
	flush()
	kept := words[:0]
	for _, w := range words {
		switch w {
		case "--global", "--project":
			if explicit {
				return nil, 0, false, fmt.Errorf("/config %s: give --global or --project once", args)
			}
			explicit = true
			if w == "--project" {
				target = config.TargetProject
			}
		default:
			kept = append(kept, w)
		}
	}
	return kept, target, explicit, nil
}

func showConfig(h Host) error {
	c, ok := h.(ConfigShower)
	if !ok {
		return unavailable("config")
	}
	text, err := c.ConfigText()
	if err != nil {
		return err
	}
	h.Show("```\n" + strings.TrimRight(text, "\n") + "\n```")
	return nil
}

// SetConfig saves key = value in target's file, applies it to the running session
// where it can (the model and the profile are switched, other settings reload the
// session) and says what happened and when it applies. The settings editor runs
// it with the user's answer.
func SetConfig(ctx context.Context, h Host, key, value string, target config.Target) error {
	ed, ok := h.(ConfigEditor)
	if !ok {
		return unavailable("config set")
	}
	cfg, err := ed.EditableConfig()
	if err != nil {
		return fmt.Errorf("/config set: %w", err)
	}
	if key == "agent" {
		if err := checkProfile(h, value); err != nil {
			return fmt.Errorf("/config set: %w", err)
		}
	}
	saved, err := cfg.SaveSetting(key, value, target)
	if err != nil {
		return fmt.Errorf("/config set: %w", err)
	}
	msg := fmt.Sprintf("Saved `%s = %s` in `%s` (%s config).", key, showValue(saved.Value), saved.Path, target)
	h.Show(msg + applySaved(ctx, h, saved, saved.Value))
	return nil
}

func unsetConfig(ctx context.Context, h Host, key string, target config.Target, explicit bool) error {
	ed, ok := h.(ConfigEditor)
	if !ok {
		return unavailable("config unset")
	}
	cfg, err := ed.EditableConfig()
	if err != nil {
		return fmt.Errorf("/config unset: %w", err)
	}
	if !explicit {
		t, ok := cfg.SettingTarget(key)
		if !ok {
			if _, err := config.LookupSetting(key); err != nil {
				return fmt.Errorf("/config unset: %w", err)
			}
			src, _ := cfg.Source(key)
			return fmt.Errorf("/config unset %s: neither your global nor the project's config file sets it (its value comes from %s)", key, src)
		}
		target = t
	}
	saved, err := cfg.UnsetSetting(key, target)
	if err != nil {
		return fmt.Errorf("/config unset: %w", err)
	}
	now := ""
	if saved.Setting.Effect == config.EffectNow {
		// The value that applies now is the next layer's: read the files again.
		fresh, err := cfg.Reload()
		if err != nil {
			return fmt.Errorf("/config unset: removed %s from %s, but the configuration no longer loads: %w", key, saved.Path, err)
		}
		for _, v := range fresh.SettingValues() {
			if v.Key == key {
				now = v.Value
			}
		}
	}
	msg := fmt.Sprintf("Removed `%s` from `%s` (%s config).", key, saved.Path, target)
	h.Show(msg + applySaved(ctx, h, saved, now))
	return nil
}

// applySaved puts a saved setting to work where the face can and returns the
// sentences that say so; value is what the running session should use.
func applySaved(ctx context.Context, h Host, saved config.Saved, value string) string {
	var b strings.Builder
	key := saved.Setting.Key
	switch saved.Setting.Effect {
	case config.EffectNow:
		applied, err := false, error(nil)
		if s, ok := h.(ModelSwitcher); ok && key == "model" {
			applied, err = true, s.SetModel(ctx, value)
		}
		if p, ok := h.(ProfileSwitcher); ok && key == "agent" {
			applied, err = true, p.SetProfile(ctx, value)
		}
		switch {
		case !applied:
			b.WriteString(" It applies to the next session.")
		case err != nil:
			fmt.Fprintf(&b, " This session keeps its %s: %v.", key, err)
		default:
			fmt.Fprintf(&b, " This session uses `%s` now.", value)
		}
	case config.EffectReload:
		r, ok := h.(Reloader)
		if !ok {
			b.WriteString(" It applies to the next session.")
		} else if err := r.Reload(ctx); err != nil {
			fmt.Fprintf(&b, " It applies after /reload (%v).", err)
		} else {
			b.WriteString(" The session is reopened with it; the conversation is kept.")
		}
	case config.EffectRestart:
		b.WriteString(" It applies when albert-code starts again.")
	}
	if saved.OverriddenBy != "" {
		fmt.Fprintf(&b, " Note: `%s` also sets %s and wins over this file, so its value applies at the next start here.", saved.OverriddenBy, key)
	}
	return b.String()
}

// checkProfile refuses a profile the face does not offer, when it lists them.
func checkProfile(h Host, name string) error {
	p, ok := h.(ProfileSwitcher)
	if !ok {
		return nil
	}
	var names []string
	for _, c := range p.Profiles() {
		names = append(names, c.Name)
	}
	if len(names) == 0 || slices.Contains(names, name) {
		return nil
	}
	return fmt.Errorf("agent: unknown profile %q: want one of %s", name, strings.Join(names, ", "))
}

func showValue(v string) string {
	if v == "" {
		return `""`
	}
	return v
}
