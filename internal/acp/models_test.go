package acp

import (
	"errors"
	"slices"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// modelOption is the session's "model" config option.
func modelOption(t *testing.T, opts []sdk.SessionConfigOption) *sdk.SessionConfigOptionSelect {
	t.Helper()
	for _, o := range opts {
		if o.Select != nil && o.Select.Id == configModel {
			return o.Select
		}
	}
	t.Fatalf("no %q config option in %+v", configModel, opts)
	return nil
}

// The `models` field offers exactly what the config option offers, in the same
// order, with the same current model.
func TestModelsFieldMatchesTheModelOption(t *testing.T) {
	f, out := start(t, fakemodel.Script{}, nil)
	conn := f.connect(out, &client{}, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	if sess.Models == nil {
		t.Fatal("session/new has no models field")
	}
	opt := modelOption(t, sess.ConfigOptions)
	var fromOption, fromModels []string
	for _, o := range *opt.Options.Ungrouped {
		fromOption = append(fromOption, string(o.Value))
	}
	for _, m := range sess.Models.AvailableModels {
		fromModels = append(fromModels, string(m.ModelId))
		if m.Name == "" {
			t.Errorf("model %q has no name", m.ModelId)
		}
	}
	if len(fromModels) < 2 || !slices.Equal(fromModels, fromOption) {
		t.Fatalf("models %v, config option %v", fromModels, fromOption)
	}
	if string(sess.Models.CurrentModelId) != string(opt.CurrentValue) || sess.Models.CurrentModelId == "" {
		t.Fatalf("current model %q, config option's %q", sess.Models.CurrentModelId, opt.CurrentValue)
	}
}

// session/set_model switches the model the next turn uses (a server alias goes out
// as its canonical id), tells the config option, and fails as the option does.
func TestSetModelSwitchesAndIsReflectedInTheConfigOption(t *testing.T) {
	f, out := start(t, fakemodel.Script{
		Models: []fakemodel.Model{{ID: "openai/gpt-oss-120b", Aliases: []string{"gpt-oss"}}},
		Turns:  []fakemodel.Turn{{Text: []string{"first"}}, {Text: []string{"second"}}, {Text: []string{"third"}}},
	}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "q1")); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.UnstableSetSessionModel(ctxFor(t), sdk.UnstableSetSessionModelRequest{SessionId: sess.SessionId, ModelId: "qwen"}); err != nil {
		t.Fatalf("set_model qwen: %v", err)
	}
	waitFor(t, "a config_option_update naming qwen", func() bool {
		for _, n := range c.snapshot() {
			if u := n.Update.ConfigOptionUpdate; u != nil && modelOption(t, u.ConfigOptions).CurrentValue == "qwen" {
				return true
			}
		}
		return false
	})
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "q2")); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, f, 1); !slices.Contains(got, "model=Qwen/Qwen3.6-27B") {
		t.Fatalf("after set_model qwen the chat request has %v", got)
	}
	// A model only the server lists, by its alias: the canonical id goes on the wire.
	if _, err := conn.UnstableSetSessionModel(ctxFor(t), sdk.UnstableSetSessionModelRequest{SessionId: sess.SessionId, ModelId: "gpt-oss"}); err != nil {
		t.Fatalf("set_model to the server's alias: %v", err)
	}
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "q3")); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, f, len(f.srv.ModelRequests())-1); !slices.Contains(got, "model=openai/gpt-oss-120b") {
		t.Fatalf("after set_model gpt-oss the chat request has %v", got)
	}

	// The same switch through the config option shows in the models field of a load.
	if _, err := conn.SetSessionConfigOption(ctxFor(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sess.SessionId, ConfigId: configModel, Value: "mistral-medium"}}); err != nil {
		t.Fatal(err)
	}
	loaded, err := conn.LoadSession(ctxFor(t), sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: f.work, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Models == nil || loaded.Models.CurrentModelId != "mistral-medium" || modelOption(t, loaded.ConfigOptions).CurrentValue != "mistral-medium" {
		t.Fatalf("session/load after the option switch: models %+v", loaded.Models)
	}
	if !slices.ContainsFunc(loaded.Models.AvailableModels, func(m sdk.ModelInfo) bool { return m.ModelId == "openai/gpt-oss-120b" }) {
		t.Errorf("the server's model is not offered once its list is cached: %+v", loaded.Models.AvailableModels)
	}
}

func TestSetModelRefusesAsTheConfigOptionDoes(t *testing.T) {
	f, out := start(t, fakemodel.Script{}, nil)
	conn := f.connect(out, &client{}, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	_, viaModel := conn.UnstableSetSessionModel(ctxFor(t), sdk.UnstableSetSessionModelRequest{SessionId: sess.SessionId, ModelId: "no-such-model"})
	_, viaOption := conn.SetSessionConfigOption(ctxFor(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sess.SessionId, ConfigId: configModel, Value: "no-such-model"}})
	var a, b *sdk.RequestError
	if !errors.As(viaModel, &a) || !errors.As(viaOption, &b) {
		t.Fatalf("set_model: %v; set_config_option: %v", viaModel, viaOption)
	}
	if a.Code != -32602 || a.Code != b.Code || a.Message != b.Message {
		t.Fatalf("set_model answered %d %q, the config option %d %q", a.Code, a.Message, b.Code, b.Message)
	}
	cases := []struct {
		name string
		req  sdk.UnstableSetSessionModelRequest
		code int
	}{
		{"an unknown session", sdk.UnstableSetSessionModelRequest{SessionId: "nope", ModelId: "qwen"}, -32002},
		{"an empty model id", sdk.UnstableSetSessionModelRequest{SessionId: sess.SessionId}, -32602},
	}
	for _, tc := range cases {
		_, err := conn.UnstableSetSessionModel(ctxFor(t), tc.req)
		var re *sdk.RequestError
		if !errors.As(err, &re) || re.Code != tc.code {
			t.Errorf("%s: %v, want code %d", tc.name, err, tc.code)
		}
	}
}
