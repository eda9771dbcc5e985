package acp

import (
	"slices"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func TestModelSelectorTakesAndOffersModelsOnlyTheServerLists(t *testing.T) {
	f, out := start(t, fakemodel.Script{
		Models: []fakemodel.Model{{ID: "openai/gpt-oss-120b", Aliases: []string{"gpt-oss"}}},
		Turns:  []fakemodel.Turn{{Text: []string{"ok"}}},
	}, nil)
	conn := f.connect(out, &client{}, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	if _, err := conn.SetSessionConfigOption(ctxFor(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sess.SessionId, ConfigId: configModel, Value: "gpt-oss"}}); err != nil {
		t.Fatalf("selecting the server's alias: %v", err)
	}
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "hi")); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, f, len(f.srv.ModelRequests())-1); !slices.Contains(got, "model=openai/gpt-oss-120b") {
		t.Fatalf("chat request %v, want the canonical id on the wire", got)
	}
	// The list is cached now: the next session's selector offers the model.
	next := f.newSession(conn)
	var offered []string
	for _, o := range next.ConfigOptions {
		if o.Select != nil && o.Select.Id == configModel {
			for _, opt := range *o.Select.Options.Ungrouped {
				offered = append(offered, string(opt.Value))
			}
		}
	}
	if !slices.Contains(offered, "openai/gpt-oss-120b") || !slices.Contains(offered, "mistral-medium") {
		t.Fatalf("model selector offers %v, want the configured models and the server's", offered)
	}
}
