package acp

import (
	"context"
	"errors"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/agent"
)

// The session config options we offer: the agent profile (also offered as modes,
// for clients that only know modes) and the model.
const (
	configMode  = "mode"
	configModel = "model"
)

// state is the session's modes and config options as the client should see them.
func (ss *session) state() (*sdk.SessionModeState, []sdk.SessionConfigOption, error) {
	profiles, err := ss.chat.Profiles()
	if err != nil {
		return nil, nil, &sdk.RequestError{Code: -32603, Message: err.Error()}
	}
	current := ss.chat.Profile()
	modes := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(current), AvailableModes: []sdk.SessionMode{}}
	var modeOpts sdk.SessionConfigSelectOptionsUngrouped
	for _, p := range profiles {
		m := sdk.SessionMode{Id: sdk.SessionModeId(p.Name), Name: p.Name}
		o := sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(p.Name), Name: p.Name}
		if p.Description != "" {
			m.Description, o.Description = sdk.Ptr(p.Description), sdk.Ptr(p.Description)
		}
		modes.AvailableModes = append(modes.AvailableModes, m)
		modeOpts = append(modeOpts, o)
	}
	var modelOpts sdk.SessionConfigSelectOptionsUngrouped
	for _, c := range ss.modelChoices() {
		o := sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(c.id), Name: c.name}
		if c.description != "" {
			o.Description = sdk.Ptr(c.description)
		}
		modelOpts = append(modelOpts, o)
	}
	modeCat, modelCat := sdk.SessionConfigOptionCategoryMode, sdk.SessionConfigOptionCategoryModel
	opts := []sdk.SessionConfigOption{
		{Select: &sdk.SessionConfigOptionSelect{Id: configMode, Name: "Agent profile", Category: &modeCat, Type: "select",
			CurrentValue: sdk.SessionConfigValueId(current), Options: sdk.SessionConfigSelectOptions{Ungrouped: &modeOpts}}},
		{Select: &sdk.SessionConfigOptionSelect{Id: configModel, Name: "Model", Category: &modelCat, Type: "select",
			CurrentValue: sdk.SessionConfigValueId(ss.chat.Model()), Options: sdk.SessionConfigSelectOptions{Ungrouped: &modelOpts}}},
	}
	return modes, opts, nil
}

// SetSessionMode switches the agent profile, keeping the conversation.
func (s *server) SetSessionMode(ctx context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	ss, err := s.session(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	if err := ss.setProfile(ctx, string(p.ModeId)); err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	return sdk.SetSessionModeResponse{}, nil
}

// SetSessionConfigOption switches the profile or the model and returns every option.
func (s *server) SetSessionConfigOption(ctx context.Context, p sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	v := p.ValueId
	if v == nil {
		return sdk.SetSessionConfigOptionResponse{}, invalidParams("the options %q and %q take a value id, not a boolean", configMode, configModel)
	}
	ss, err := s.session(v.SessionId)
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	switch string(v.ConfigId) {
	case configMode:
		err = ss.setProfile(ctx, string(v.Value))
	case configModel:
		err = ss.setModel(ctx, string(v.Value))
	default:
		err = invalidParams("unknown config option %q: the options are %q and %q", v.ConfigId, configMode, configModel)
	}
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	_, opts, err := ss.state()
	return sdk.SetSessionConfigOptionResponse{ConfigOptions: opts}, err
}

// setProfile switches the profile and tells the client, which may show the mode and
// the config option in different places.
func (ss *session) setProfile(ctx context.Context, name string) error {
	if err := ss.chat.SetProfile(name); err != nil {
		return switchError(err)
	}
	ss.send(ctx, sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(ss.chat.Profile())}})
	ss.sendConfigOptions(ctx)
	return nil
}

func (ss *session) setModel(ctx context.Context, name string) error {
	if err := ss.chat.SetModel(name); err != nil {
		return switchError(err)
	}
	ss.sendConfigOptions(ctx)
	ss.sendUsage(ctx)
	return nil
}

func (ss *session) sendConfigOptions(ctx context.Context) {
	if _, opts, err := ss.state(); err == nil {
		ss.send(ctx, sdk.SessionUpdate{ConfigOptionUpdate: &sdk.SessionConfigOptionUpdate{ConfigOptions: opts}})
	}
}

// switchError tells a busy session from a bad name.
func switchError(err error) error {
	if errors.Is(err, agent.ErrBusy) {
		return &sdk.RequestError{Code: -32600, Message: "Invalid request: " + err.Error()}
	}
	return invalidParams("%v", err)
}
