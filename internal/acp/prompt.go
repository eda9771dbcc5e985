package acp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/slash"
)

// Prompt runs one turn and answers when the agent stops. A slash command from the
// shared registry runs instead of reaching the model.
func (s *server) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	ss, err := s.session(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	ss.announce()
	text, err := promptText(p.Prompt, ss.cwd)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	if slash.IsCommand(text) {
		return ss.runCommand(ctx, text)
	}
	tr := newTranslator(ctx, ss)
	res := ss.chat.Prompt(ctx, text, tr.emit)
	if errors.Is(res.Err, agent.ErrBusy) {
		return sdk.PromptResponse{}, &sdk.RequestError{Code: -32600, Message: "Invalid request: " + res.Err.Error()}
	}
	ss.afterTurn(ctx)
	stop := stopReason(res.Stop)
	if res.Stop == agent.StopError || res.Stop == agent.StopMaxPrice {
		// The turn cannot go on: say why in the conversation, where the user looks.
		msg := "The agent stopped"
		if res.Err != nil {
			msg += ": " + res.Err.Error()
		}
		ss.send(ctx, sdk.UpdateAgentMessageText("\n\n"+msg+"\n"))
	}
	st := ss.chat.Stats()
	return sdk.PromptResponse{StopReason: stop, Meta: map[string]any{"albert-code": map[string]any{
		"inputTokens": st.Usage.InputTokens, "outputTokens": st.Usage.OutputTokens, "cost": st.Cost,
	}}}, nil
}

// stopReason maps how the agent stopped to ACP's closed list. A price cap or an
// error is a refusal: the agent will not go on with this turn.
func stopReason(s agent.StopReason) sdk.StopReason {
	switch s {
	case agent.StopEndTurn:
		return sdk.StopReasonEndTurn
	case agent.StopCancelled:
		return sdk.StopReasonCancelled
	case agent.StopMaxTurns:
		return sdk.StopReasonMaxTurnRequests
	}
	return sdk.StopReasonRefusal
}

// Cancel stops the session's running turn; with none running it does nothing.
func (s *server) Cancel(_ context.Context, p sdk.CancelNotification) error {
	s.mu.Lock()
	ss := s.sessions[string(p.SessionId)]
	s.mu.Unlock()
	if ss == nil {
		s.log.Info("session/cancel for an unknown session", "session", p.SessionId)
		return nil
	}
	ss.chat.Cancel()
	return nil
}

// afterTurn sends the totals and, once the first prompt titled it, the title.
func (ss *session) afterTurn(ctx context.Context) {
	ss.sendUsage(ctx)
	title := ss.chat.Title()
	ss.mu.Lock()
	changed := title != "" && title != ss.title
	ss.title = title
	ss.mu.Unlock()
	if changed {
		now := time.Now().UTC().Format(time.RFC3339)
		ss.send(ctx, sdk.SessionUpdate{SessionInfoUpdate: &sdk.SessionSessionInfoUpdate{Title: &title, UpdatedAt: &now}})
	}
}

// sendUsage reports how full the context window is and what the session cost.
func (ss *session) sendUsage(ctx context.Context) {
	st := ss.chat.Stats()
	u := &sdk.SessionUsageUpdate{
		Used: int(st.ContextTokens), Size: st.ContextWindow,
		Cost: &sdk.Cost{Amount: st.Cost, Currency: "EUR"},
	}
	if gauge := rateLimitsMeta(ss.chat.RateGauge()); gauge != nil {
		u.Meta = map[string]any{rateLimitsMetaKey: gauge}
	}
	ss.send(ctx, sdk.SessionUpdate{UsageUpdate: u})
}

// promptText flattens the prompt's blocks into the text the agent reads. Files the
// editor embeds are quoted with their path; linked ones are named so the agent can
// read them.
func promptText(blocks []sdk.ContentBlock, cwd string) (string, error) {
	var b strings.Builder
	for i, c := range blocks {
		if i > 0 && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
		switch {
		case c.Text != nil:
			b.WriteString(c.Text.Text)
		case c.ResourceLink != nil:
			l := c.ResourceLink
			fmt.Fprintf(&b, "Attached: %s", resourceName(l.Uri, cwd))
			if l.Title != nil && *l.Title != "" {
				fmt.Fprintf(&b, " (%s)", *l.Title)
			}
			if l.Description != nil && *l.Description != "" {
				fmt.Fprintf(&b, ": %s", *l.Description)
			}
			b.WriteString("\n")
		case c.Resource != nil:
			r := c.Resource.Resource
			switch {
			case r.TextResourceContents != nil:
				fmt.Fprintf(&b, "Contents of %s:\n```\n%s\n```\n", resourceName(r.TextResourceContents.Uri, cwd), strings.TrimRight(r.TextResourceContents.Text, "\n"))
			case r.BlobResourceContents != nil:
				fmt.Fprintf(&b, "Attached binary resource %s (not shown)\n", resourceName(r.BlobResourceContents.Uri, cwd))
			}
		case c.Image != nil:
			return "", invalidParams("image content is not supported (promptCapabilities.image is false); attach the file as a resource link instead")
		case c.Audio != nil:
			return "", invalidParams("audio content is not supported (promptCapabilities.audio is false)")
		}
	}
	text := strings.TrimSpace(b.String())
	if text == "" {
		return "", invalidParams("the prompt is empty; send at least one text or resource block")
	}
	return text, nil
}

// resourceName shows a file URI as a path, relative to the workspace when inside it.
func resourceName(uri, cwd string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" && u.Path != "" {
		return displayPath(u.Path, cwd)
	}
	return uri
}
