package acp

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// The setup is offered only to a client that can open a terminal: typed for one that
// declares auth.terminal, with Zed's _meta command for one that sets
// _meta["terminal-auth"], with both for a client that does both.
func TestInitializeOffersTheSetupToClientsThatRunATerminal(t *testing.T) {
	setupCmd := []string{"/opt/bin/albert-acp", "--setup"}
	cases := []struct {
		name       string
		caps       sdk.ClientCapabilities
		ids        []string
		typed      bool // the setup is a `terminal` method
		legacyMeta bool // the setup carries _meta["terminal-auth"]
	}{
		{"no terminal", sdk.ClientCapabilities{}, []string{authAPIKey}, false, false},
		{"auth.terminal", sdk.ClientCapabilities{Auth: sdk.AuthCapabilities{Terminal: true}}, []string{authSetup, authAPIKey}, true, false},
		{"_meta terminal-auth", sdk.ClientCapabilities{Meta: map[string]any{"terminal-auth": true}}, []string{authSetup, authAPIKey}, false, true},
		{"both", sdk.ClientCapabilities{Auth: sdk.AuthCapabilities{Terminal: true}, Meta: map[string]any{"terminal-auth": true}},
			[]string{authSetup, authAPIKey}, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, out := startWith(t, fakemodel.Script{}, nil, func(o *Options) { o.SetupCommand = setupCmd })
			conn := sdk.NewClientSideConnection(&client{}, f.toSrv, out)
			resp, err := conn.Initialize(ctxFor(t), sdk.InitializeRequest{ProtocolVersion: 1, ClientCapabilities: tc.caps})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range resp.AuthMethods {
				switch {
				case m.Terminal != nil:
					ids = append(ids, m.Terminal.Id)
				case m.Agent != nil:
					ids = append(ids, m.Agent.Id)
				}
			}
			if !slices.Equal(ids, tc.ids) {
				t.Fatalf("auth methods %v, want %v", ids, tc.ids)
			}
			if len(ids) == 1 {
				return
			}
			setup := resp.AuthMethods[0]
			var meta map[string]any
			if tc.typed {
				if setup.Terminal == nil || !slices.Equal(setup.Terminal.Args, []string{"--setup"}) {
					t.Fatalf("setup method %+v, want a terminal method with args [--setup]", setup)
				}
				meta = setup.Terminal.Meta
			} else {
				if setup.Agent == nil {
					t.Fatalf("setup method %+v, want an agent method", setup)
				}
				meta = setup.Agent.Meta
			}
			ta, _ := meta["terminal-auth"].(map[string]any)
			if !tc.legacyMeta {
				if ta != nil {
					t.Fatalf("_meta terminal-auth sent to a client that did not ask: %v", meta)
				}
				return
			}
			args, _ := ta["args"].([]any)
			if ta["command"] != "/opt/bin/albert-acp" || len(args) != 1 || args[0] != "--setup" || ta["label"] == "" {
				t.Fatalf("_meta terminal-auth %v, want the setup command", ta)
			}
		})
	}
}

// Without SetupCommand a client that only knows Zed's _meta gets the API key
// method alone: there is no command to give it.
func TestLegacyTerminalAuthNeedsTheSetupCommand(t *testing.T) {
	f, out := start(t, fakemodel.Script{}, nil)
	conn := sdk.NewClientSideConnection(&client{}, f.toSrv, out)
	resp, err := conn.Initialize(ctxFor(t), sdk.InitializeRequest{ProtocolVersion: 1,
		ClientCapabilities: sdk.ClientCapabilities{Meta: map[string]any{"terminal-auth": true}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.AuthMethods) != 1 || resp.AuthMethods[0].Agent == nil || resp.AuthMethods[0].Agent.Id != authAPIKey {
		t.Fatalf("auth methods %+v", resp.AuthMethods)
	}
}

// authenticate reads the configuration again: it fails with what to do while no key
// is set, and succeeds once the setup has saved one in the .env file, after which
// sessions open and the model gets that key.
func TestAuthenticateSucceedsOnceTheSetupSavedAKey(t *testing.T) {
	f, out := startWith(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"ok"}}}}, map[string]string{"ALBERT_API_KEY": ""},
		func(o *Options) { o.SetupCommand = []string{"/opt/bin/albert-acp", "--setup"} })
	conn := f.connect(out, &client{}, sdk.ClientCapabilities{Auth: sdk.AuthCapabilities{Terminal: true}})

	for _, method := range []string{authAPIKey, authSetup} {
		_, err := conn.Authenticate(ctxFor(t), sdk.AuthenticateRequest{MethodId: method})
		var re *sdk.RequestError
		if !errors.As(err, &re) || re.Code != -32000 || !strings.Contains(re.Message, "ALBERT_API_KEY") || !strings.Contains(re.Message, "albert-acp --setup") {
			t.Fatalf("authenticate %s without a key: %v, want auth_required naming the variable and the setup", method, err)
		}
	}
	_, err := conn.NewSession(ctxFor(t), sdk.NewSessionRequest{Cwd: f.work, McpServers: []sdk.McpServer{}})
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != -32000 || !strings.Contains(re.Message, "albert-acp --setup") {
		t.Fatalf("session/new without a key: %v, want auth_required pointing at the setup", err)
	}

	// What `albert-acp --setup` leaves behind.
	envFile := filepath.Join(f.vars["ALBERT_CODE_HOME"], ".env")
	if err := os.MkdirAll(filepath.Dir(envFile), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(envFile, []byte("ALBERT_API_KEY='sk-from-setup'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Authenticate(ctxFor(t), sdk.AuthenticateRequest{MethodId: authSetup}); err != nil {
		t.Fatalf("authenticate after the setup: %v", err)
	}
	sess := f.newSession(conn)
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "hi")); err != nil {
		t.Fatal(err)
	}
	if auth := f.srv.ModelRequests()[0].Header.Get("Authorization"); auth != "Bearer sk-from-setup" {
		t.Fatalf("the model got Authorization %q", auth)
	}

	_, err = conn.Authenticate(ctxFor(t), sdk.AuthenticateRequest{MethodId: "oauth"})
	if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, `"oauth"`) || !strings.Contains(re.Message, `"api-key"`) {
		t.Fatalf("an unknown method: %v", err)
	}
}
