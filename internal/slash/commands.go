package slash

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config"
)

var (
	bothFaces = []Face{FaceTUI, FaceACP}
	tuiOnly   = []Face{FaceTUI}
)

// Default returns a registry with the built-in commands. /help lists the registry it
// belongs to, so commands registered later appear in it too.
func Default() *Registry {
	r := &Registry{byName: map[string]int{}}
	cmds := []Command{
		{Name: "help", Description: "Show the commands and key bindings", Faces: bothFaces,
			Run: func(_ context.Context, h Host, _ string) error { h.Show(r.Help(h)); return nil }},
		{Name: "model", ArgHint: "[name] [--save]", Description: "Switch the model for this session (--save: also make it the default), or pick one from a list", Faces: bothFaces, Run: runModel},
		{Name: "agent", ArgHint: "[profile]", Description: "Switch the agent profile (default, plan, accept-edits, auto-approve...)", Faces: bothFaces, Run: runAgent},
		{Name: "clear", Description: "Start a fresh conversation (the current one stays saved)", Faces: bothFaces, Run: runClear},
		{Name: "compact", ArgHint: "[instructions]", Description: "Summarise the conversation to free the context window", Faces: bothFaces, Run: runCompact},
		// The original's /continue opened the same picker (notes §2.2).
		{Name: "resume", Aliases: []string{"continue"}, ArgHint: "[session id]", Description: "Resume a saved session of this directory", Faces: tuiOnly, Run: runResume},
		{Name: "config", ArgHint: "[show | set KEY VALUE | unset KEY] [--global|--project]", Description: "Edit and save the settings, or show the configuration and where each value comes from", Faces: bothFaces, Run: runConfig},
		{Name: "reload", Description: "Re-read the configuration, profiles and AGENTS.md; keep the conversation", Faces: bothFaces, Run: runReload},
		// The original's /log showed the session folder, which /status shows.
		{Name: "status", Aliases: []string{"log"}, Description: "Show the session, model, tokens, context and cost", Faces: bothFaces, Run: runStatus},
		{Name: "cost", Description: "Show the tokens and cost of this session", Faces: bothFaces, Run: runCost},
		// The original's /limits showed the same table.
		{Name: "quota", Aliases: []string{"limits"}, Description: "Show today's token usage against the account's daily limits", Faces: bothFaces, Run: runQuota},
		// The original's /fallback toggled auto_fallback_enabled in the config file (notes §3.4).
		{Name: "fallback", ArgHint: "[on|off]", Description: "Turn the automatic switch to a rate-limited model's fallback_model on or off", Faces: bothFaces, Run: runFallback},
		// The original's /proxy-setup was a guided editor of the same variables (notes §2.2).
		{Name: "proxy-setup", ArgHint: "[NAME=VALUE ...]", Description: "Show or save the proxy variables kept in ~/.albert-code/.env", Faces: tuiOnly, Run: runProxySetup},
		{Name: "rpm", Description: "Show the model's requests and tokens in the last minute against its limits", Faces: bothFaces, Run: runRPM},
		{Name: "copy", Description: "Copy the last answer to the clipboard", Faces: tuiOnly, Run: runCopy},
		{Name: "exit", Aliases: []string{"quit"}, Description: "Quit", Faces: tuiOnly, Run: runExit},
	}
	for _, c := range cmds {
		if err := r.Register(c); err != nil {
			panic(err) // the built-in table is fixed; a clash is a programming error
		}
	}
	return r
}

// Help renders the commands of h's face as Markdown, then the face's key bindings.
func (r *Registry) Help(h Host) string {
	var b strings.Builder
	b.WriteString("## Commands\n\n")
	for _, c := range r.Commands(h.Face()) {
		fmt.Fprintf(&b, "- `/%s", c.Name)
		if c.ArgHint != "" {
			b.WriteString(" " + c.ArgHint)
		}
		b.WriteString("`")
		if len(c.Aliases) > 0 {
			b.WriteString(" (`/" + strings.Join(c.Aliases, "`, `/") + "`)")
		}
		b.WriteString(": " + c.Description + "\n")
	}
	if k, ok := h.(KeyHelper); ok {
		b.WriteString("\n## Keys\n\n" + k.KeyHelp())
	}
	return b.String()
}

func runModel(ctx context.Context, h Host, args string) error {
	s, ok := h.(ModelSwitcher)
	if !ok {
		return unavailable("model")
	}
	name, save := cutFlag(args, "--save")
	if save {
		return saveModel(ctx, h, s, name)
	}
	if name != "" {
		if err := s.SetModel(ctx, name); err != nil {
			return err
		}
		msg := fmt.Sprintf("model: `%s` for this session", name)
		if _, ok := h.(ConfigEditor); ok {
			msg += fmt.Sprintf(" (`/model %s --save` makes it the default)", name)
		}
		h.Show(msg)
		return nil
	}
	return switchOrList(ctx, h, "model", args, s.Models(), s.SetModel)
}

// saveModel writes name as the default model in the global config, then switches
// the session to it.
func saveModel(ctx context.Context, h Host, s ModelSwitcher, name string) error {
	ed, ok := h.(ConfigEditor)
	if !ok {
		return unavailable("model --save")
	}
	if name == "" {
		return errors.New("/model --save: name the model to save, such as `/model qwen --save`")
	}
	cfg, err := ed.EditableConfig()
	if err != nil {
		return fmt.Errorf("/model --save: %w", err)
	}
	saved, err := cfg.SaveSetting("model", name, config.TargetGlobal)
	if err != nil {
		return fmt.Errorf("/model --save: %w", err)
	}
	if err := s.SetModel(ctx, name); err != nil {
		return fmt.Errorf("/model: saved %s as the default in %s, but this session keeps its model: %w", name, saved.Path, err)
	}
	msg := fmt.Sprintf("model: `%s` for this session, and saved as the default in `%s`", name, saved.Path)
	if saved.OverriddenBy != "" {
		msg += fmt.Sprintf(". Note: `%s` sets model too and wins over that file, so it still chooses the model at the next start here", saved.OverriddenBy)
	}
	h.Show(msg + ".")
	return nil
}

// cutFlag removes the word flag from args and says whether it was there.
func cutFlag(args, flag string) (string, bool) {
	words := strings.Fields(args)
	i := slices.Index(words, flag)
	if i < 0 {
		return args, false
	}
	return strings.Join(slices.Delete(words, i, i+1), " "), true
}

func runAgent(ctx context.Context, h Host, args string) error {
	s, ok := h.(ProfileSwitcher)
	if !ok {
		return unavailable("agent")
	}
	return switchOrList(ctx, h, "agent", args, s.Profiles(), s.SetProfile)
}

// switchOrList switches to args when given; otherwise it opens the face's picker,
// or lists the choices in faces without one.
func switchOrList(ctx context.Context, h Host, what, args string, choices []Choice, set func(context.Context, string) error) error {
	if args != "" {
		if err := set(ctx, args); err != nil {
			return err
		}
		h.Show(fmt.Sprintf("%s: `%s`", what, args))
		return nil
	}
	if p, ok := h.(Picker); ok {
		p.Pick(what)
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Choose with `/%s NAME`:\n\n", what)
	for _, c := range choices {
		mark := ""
		if c.Current {
			mark = " (current)"
		}
		fmt.Fprintf(&b, "- `%s`%s", c.Name, mark)
		if c.Description != "" {
			b.WriteString(": " + c.Description)
		}
		b.WriteString("\n")
	}
	h.Show(b.String())
	return nil
}

func runClear(ctx context.Context, h Host, _ string) error {
	c, ok := h.(Clearer)
	if !ok {
		return unavailable("clear")
	}
	return c.Clear(ctx)
}

func runCompact(ctx context.Context, h Host, args string) error {
	c, ok := h.(Compacter)
	if !ok {
		return unavailable("compact")
	}
	return c.Compact(ctx, args)
}

func runResume(ctx context.Context, h Host, args string) error {
	if args != "" {
		r, ok := h.(Resumer)
		if !ok {
			return unavailable("resume")
		}
		return r.Resume(ctx, args)
	}
	p, ok := h.(Picker)
	if !ok {
		return unavailable("resume")
	}
	p.Pick("session")
	return nil
}

func runReload(ctx context.Context, h Host, _ string) error {
	r, ok := h.(Reloader)
	if !ok {
		return unavailable("reload")
	}
	if err := r.Reload(ctx); err != nil {
		return err
	}
	h.Show("Configuration reloaded.")
	return nil
}

func runStatus(_ context.Context, h Host, _ string) error {
	s, ok := h.(StatusReporter)
	if !ok {
		return unavailable("status")
	}
	h.Show(FormatStatus(s.Status()))
	return nil
}

func runCost(_ context.Context, h Host, _ string) error {
	s, ok := h.(StatusReporter)
	if !ok {
		return unavailable("cost")
	}
	h.Show(FormatCost(s.Status()))
	return nil
}

func runCopy(_ context.Context, h Host, _ string) error {
	c, ok := h.(Copier)
	if !ok {
		return unavailable("copy")
	}
	if err := c.CopyLastAnswer(); err != nil {
		return err
	}
	h.Show("Copied the last answer.")
	return nil
}

func runExit(_ context.Context, h Host, _ string) error {
	q, ok := h.(Quitter)
	if !ok {
		return unavailable("exit")
	}
	q.Quit()
	return nil
}

func runQuota(ctx context.Context, h Host, _ string) error {
	l, ok := h.(LimitReporter)
	if !ok {
		return unavailable("quota")
	}
	return l.ShowQuota(ctx)
}

func runRPM(ctx context.Context, h Host, _ string) error {
	l, ok := h.(LimitReporter)
	if !ok {
		return unavailable("rpm")
	}
	return l.ShowRPM(ctx)
}
