package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"
)

// modelChoice is one model the session can switch to, as both selectors show it:
// the config option "model" and the older `models` field with session/set_model,
// which editors such as Zed still use.
type modelChoice struct {
	id, name    string
	description string // the wire name and provider when they differ from id
}

// modelChoices lists the configured models, then those the server's cached list
// adds, in the order the config option has always offered them.
func (ss *session) modelChoices() []modelChoice {
	var out []modelChoice
	for _, m := range ss.chat.Models() {
		c := modelChoice{id: m.Name, name: m.Name}
		if m.WireName != "" && m.WireName != m.Name {
			c.description = m.WireName + " (" + m.Provider + ")"
		}
		out = append(out, c)
	}
	return out
}

// modelState is the `models` field of session/new and session/load: the same list
// and the same current model as the config option.
func (ss *session) modelState() *sdk.SessionModelState {
	st := &sdk.SessionModelState{CurrentModelId: sdk.ModelId(ss.chat.Model()), AvailableModels: []sdk.ModelInfo{}}
	for _, c := range ss.modelChoices() {
		info := sdk.ModelInfo{ModelId: sdk.ModelId(c.id), Name: c.name}
		if c.description != "" {
			info.Description = sdk.Ptr(c.description)
		}
		st.AvailableModels = append(st.AvailableModels, info)
	}
	return st
}

// UnstableSetSessionModel is session/set_model: the same switch as the config
// option "model", with the same errors; the config_option_update it sends keeps a
// client that shows the option in step.
func (s *server) UnstableSetSessionModel(ctx context.Context, p sdk.UnstableSetSessionModelRequest) (sdk.UnstableSetSessionModelResponse, error) {
	ss, err := s.session(p.SessionId)
	if err != nil {
		return sdk.UnstableSetSessionModelResponse{}, err
	}
	if p.ModelId == "" {
		return sdk.UnstableSetSessionModelResponse{}, invalidParams("modelId is empty: send one of the modelId values of the session's models.availableModels")
	}
	if err := ss.setModel(ctx, string(p.ModelId)); err != nil {
		return sdk.UnstableSetSessionModelResponse{}, err
	}
	return sdk.UnstableSetSessionModelResponse{}, nil
}
