package acp

import (
	"context"
	"errors"
	"os"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/config"
)

// The authentication methods we advertise. Both end the same way: the key is read
// from the environment and the user's configuration, where the setup saves it.
const (
	// authAPIKey asks the user to provide the key themselves, then checks it.
	authAPIKey = "api-key"
	// authSetup runs `albert-acp --setup` in a terminal the editor opens.
	authSetup = "setup"
)

// setupHint says what a user without a key can do, wherever one is missing.
const setupHint = "or run `albert-acp --setup` in a terminal (the editor's \"Set up Albert Code\" button does it where offered)"

// terminalAuthMeta is the _meta key of the terminal authentication Zed implemented
// before the protocol had a terminal method type: a client that sets it to true in
// its capabilities' _meta runs the command an auth method's _meta gives.
const terminalAuthMeta = "terminal-auth"

// authMethods are the methods offered to a client with caps. The setup runs in a
// terminal only for a client that says it can open one: as a typed `terminal`
// method when it declares auth.terminal (the protocol's way, which appends our
// args to its own command line), and with the legacy _meta command for Zed.
func (s *server) authMethods(caps sdk.ClientCapabilities) []sdk.AuthMethod {
	keyDesc := "Set ALBERT_API_KEY (or your provider's key variable) in the environment the editor starts albert-acp with, " + setupHint + "."
	methods := []sdk.AuthMethod{{Agent: &sdk.AuthMethodAgent{Id: authAPIKey, Name: "API key", Description: &keyDesc}}}

	legacy := caps.Meta[terminalAuthMeta] == true && len(s.opts.SetupCommand) > 0
	if !caps.Auth.Terminal && !legacy {
		return methods
	}
	name := "Set up Albert Code"
	setupDesc := "Choose a provider and a model and save your API key, in a terminal."
	var meta map[string]any
	if legacy {
		meta = map[string]any{terminalAuthMeta: map[string]any{
			"command": s.opts.SetupCommand[0],
			"args":    append([]string{}, s.opts.SetupCommand[1:]...),
			"label":   "Albert Code setup",
		}}
	}
	setup := sdk.AuthMethod{Agent: &sdk.AuthMethodAgent{Id: authSetup, Name: name, Description: &setupDesc, Meta: meta}}
	if caps.Auth.Terminal {
		setup = sdk.AuthMethod{Terminal: &sdk.AuthMethodTerminalInline{Id: authSetup, Name: name, Description: &setupDesc,
			Args: []string{"--setup"}, Meta: meta}}
	}
	// The setup first: editors show the first method as the main button.
	return append([]sdk.AuthMethod{setup}, methods...)
}

// Authenticate succeeds when a key is now available: the configuration and the
// .env file are read again, so a key the setup just saved counts without a
// restart. Otherwise it answers auth_required saying what to do.
func (s *server) Authenticate(_ context.Context, p sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	if p.MethodId != authAPIKey && p.MethodId != authSetup {
		return sdk.AuthenticateResponse{}, invalidParams("unknown authentication method %q: the methods are %q and %q (see initialize's authMethods)", p.MethodId, authSetup, authAPIKey)
	}
	if err := s.checkAPIKey(); err != nil {
		return sdk.AuthenticateResponse{}, openError(err)
	}
	return sdk.AuthenticateResponse{}, nil
}

// checkAPIKey loads the configuration as a session in the current folder would and
// asks for the active model's key.
func (s *server) checkAPIKey() error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	env, err := s.opts.LoadEnv(wd)
	if err != nil {
		return err
	}
	defer env.Close()
	_, p, err := env.ModelFor()
	if err != nil {
		return err
	}
	_, err = env.Config.APIKey(p.Name)
	return err
}

// authRequired is the answer to a request that needs a key nobody set.
func authRequired(err error) error {
	if !errors.Is(err, config.ErrMissingAPIKey) {
		return nil
	}
	return &sdk.RequestError{Code: -32000, Message: "Authentication required: " + err.Error() + ", " + setupHint + "."}
}
