package acp

import (
	"bytes"
	"context"
	"errors"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/slash"
)

// availableCommands lists the slash commands an editor may offer: those of the
// shared registry marked for ACP, and the session's skills.
func availableCommands(commands *slash.Registry) sdk.SessionUpdate {
	list := []sdk.AvailableCommand{}
	for _, c := range commands.Commands(slash.FaceACP) {
		ac := sdk.AvailableCommand{Name: c.Name, Description: c.Description}
		if c.ArgHint != "" {
			ac.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: c.ArgHint}}
		}
		list = append(list, ac)
	}
	return sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: list}}
}

// runCommand runs a slash command as a turn of its own: what it shows arrives as
// agent message chunks, and a failure is said the same way.
func (ss *session) runCommand(ctx context.Context, line string) (sdk.PromptResponse, error) {
	h := &host{ctx: ctx, ss: ss, tr: newTranslator(ctx, ss)}
	if err := ss.commands.Run(ctx, h, line); err != nil {
		if errors.Is(err, slash.ErrUnavailable) {
			h.Show(err.Error() + " in an editor.")
		} else {
			h.Show("Error: " + err.Error())
		}
	}
	if ctx.Err() != nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

// host is what a slash command acts on in an ACP session.
type host struct {
	ctx context.Context
	ss  *session
	tr  *translator
}

func (h *host) Face() slash.Face { return slash.FaceACP }

func (h *host) Show(markdown string) {
	h.ss.send(h.ctx, sdk.UpdateAgentMessageText(markdown+"\n"))
}

func (h *host) Clear(context.Context) error {
	if err := h.ss.chat.Clear(); err != nil {
		return err
	}
	h.Show("Started a fresh conversation; the previous one stays saved.")
	h.ss.sendUsage(h.ctx)
	return nil
}

func (h *host) Compact(ctx context.Context, instructions string) error {
	return h.ss.chat.Compact(ctx, instructions, h.tr.emit)
}

// RunSkill runs /skill-name as the prompt of this turn, streamed like any other.
func (h *host) RunSkill(ctx context.Context, name, request string) error {
	res := h.ss.chat.RunSkill(ctx, name, request, h.tr.emit)
	h.ss.afterTurn(ctx)
	if res.Err != nil && ctx.Err() == nil {
		return res.Err
	}
	return nil
}

func (h *host) Models() []slash.Choice {
	var out []slash.Choice
	current := h.ss.chat.Model()
	for _, m := range h.ss.chat.Models() {
		out = append(out, slash.Choice{Name: m.Name, Description: m.WireName, Current: m.Name == current})
	}
	return out
}

func (h *host) SetModel(ctx context.Context, name string) error { return h.ss.setModel(ctx, name) }

func (h *host) Profiles() []slash.Choice {
	ps, err := h.ss.chat.Profiles()
	if err != nil {
		return nil
	}
	var out []slash.Choice
	current := h.ss.chat.Profile()
	for _, p := range ps {
		out = append(out, slash.Choice{Name: p.Name, Description: p.Description, Current: p.Name == current})
	}
	return out
}

func (h *host) SetProfile(ctx context.Context, name string) error { return h.ss.setProfile(ctx, name) }

func (h *host) Status() slash.Status {
	st := h.ss.chat.Stats()
	return slash.Status{SessionID: h.ss.chat.ID(), Model: h.ss.chat.Model(), Profile: h.ss.chat.Profile(),
		ContextWindow: st.ContextWindow, Stats: st.Stats}
}

func (h *host) ShowQuota(ctx context.Context) error {
	h.Show(slash.Preformatted(h.ss.chat.QuotaText(ctx)))
	return nil
}

func (h *host) ShowRPM(context.Context) error {
	text, err := h.ss.chat.RPMText()
	if err != nil {
		return err
	}
	h.Show(slash.Preformatted(text))
	return nil
}

// Reload reads the configuration again, keeping the conversation (/reload; also
// how /config set and /fallback apply what they saved).
func (h *host) Reload(ctx context.Context) error { return h.ss.reload(ctx) }

// EditableConfig is the configuration /config set and unset write through.
func (h *host) EditableConfig() (*config.Config, error) { return h.ss.chat.Config(), nil }

// AutoFallback says whether the rate limiter may move calls to a fallback model.
func (h *host) AutoFallback() bool { return !h.ss.chat.Config().RateLimits.NoAutoFallback }

// SaveAutoFallback writes auto_fallback_enabled to the global config file; /fallback
// then reloads the session.
func (h *host) SaveAutoFallback(on bool) (string, error) {
	return h.ss.chat.Config().SaveAutoFallback(on)
}

func (h *host) ConfigText() (string, error) {
	var b bytes.Buffer
	err := config.Show(&b, h.ss.chat.Config())
	return b.String(), err
}
