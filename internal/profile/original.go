package profile

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// originalFile holds the keys of the original Python albert-code's profile files
// (ac:albert_code/core/agents/models.py, notes §2.6) that have a meaning here. Its
// reserved keys are display_name, description, safety and agent_type; every other key
// there is a config override, of which these few map onto a profile.
type originalFile struct {
	DisplayName   *string                   `toml:"display_name"`
	Safety        *string                   `toml:"safety"`
	AgentType     *string                   `toml:"agent_type"`
	EnabledTools  *[]string                 `toml:"enabled_tools"`
	ActiveModel   *string                   `toml:"active_model"`
	Tools         map[string]map[string]any `toml:"tools"`
	SystemPromptI *string                   `toml:"system_prompt_id"`
}

// originalToolNames maps the original's tool names onto ours; others are the same.
var originalToolNames = map[string]string{
	"read_file": "read", "write_file": "write", "search_replace": "edit",
}

func ourToolName(name string) string {
	if n, ok := originalToolNames[name]; ok {
		return n
	}
	return name
}

// decodeDefinition reads one profile file. A file in our format decodes strictly; a
// file with keys we do not know is read as the original's format: its keys are mapped
// one by one, and each key neither format knows is a warning naming the file and the
// key, never an error (the file may be left there for the original tool).
func decodeDefinition(path string, data []byte) (definition, []string, error) {
	d := definition{path: path}
	var err error
	if d.lines, err = tomlfile.Decode(path, data, &d.f); err == nil {
		return d, nil, nil
	}
	var raw map[string]any
	if toml.Unmarshal(data, &raw) != nil {
		return d, nil, err // a syntax error: the strict decoder's message says where
	}
	d.f = file{}
	if d.lines, err = tomlfile.DecodeLoose(path, data, &d.f); err != nil {
		return d, nil, err
	}
	var o originalFile
	if _, err := tomlfile.DecodeLoose(path, data, &o); err != nil {
		return d, nil, err
	}
	if err := d.mapOriginal(o); err != nil {
		return d, nil, err
	}
	var warns []string
	known := append(tomlfile.FieldNames(reflect.TypeOf(file{}), nil), tomlfile.FieldNames(reflect.TypeOf(originalFile{}), nil)...)
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		switch {
		case k == "tools":
			warns = append(warns, unmappedToolKeys(path, d.lines, raw[k])...)
		case k == "system_prompt_id":
			warns = append(warns, fmt.Sprintf("%s:%d: profile key %q is not used here (put the prompt text in system_prompt); the rest of the profile applies",
				path, d.lines.Line(k), k))
		case !slices.Contains(known, k):
			warns = append(warns, fmt.Sprintf("%s:%d: unknown profile key %q ignored (docs/migrating.md lists the keys read)", path, d.lines.Line(k), k))
		}
	}
	return d, warns, nil
}

// mapOriginal applies the original's keys where our own keys are not set.
func (d *definition) mapOriginal(o originalFile) error {
	f := &d.f
	if f.Description == nil && o.DisplayName != nil {
		f.Description = o.DisplayName
	}
	if o.Safety != nil && !slices.Contains([]string{"safe", "neutral", "destructive", "yolo"}, *o.Safety) {
		return d.errAt("safety", fmt.Sprintf("safety %q is none of safe, neutral, destructive, yolo", *o.Safety),
			tomlfile.Suggest(*o.Safety, []string{"safe", "neutral", "destructive", "yolo"}))
	}
	if o.AgentType != nil {
		switch *o.AgentType {
		case "agent", "subagent":
			if f.Subagent == nil {
				sub := *o.AgentType == "subagent"
				f.Subagent = &sub
			}
		default:
			return d.errAt("agent_type", fmt.Sprintf("agent_type %q is neither agent nor subagent", *o.AgentType), "")
		}
	}
	if f.AllowedTools == nil && o.EnabledTools != nil {
		names := make([]string, len(*o.EnabledTools))
		for i, n := range *o.EnabledTools {
			names[i] = ourToolName(n)
		}
		f.AllowedTools = &names
	}
	if f.DisabledTools != nil {
		for i, n := range *f.DisabledTools {
			(*f.DisabledTools)[i] = ourToolName(n)
		}
	}
	if f.Model == nil && o.ActiveModel != nil {
		f.Model = o.ActiveModel // the original's names resolve through config's migration table
	}
	for name, t := range o.Tools {
		p, ok := t["permission"].(string)
		if !ok {
			continue
		}
		if f.Permissions == nil {
			f.Permissions = map[string]string{}
		}
		if _, set := f.Permissions[ourToolName(name)]; !set {
			f.Permissions[ourToolName(name)] = p
		}
	}
	return nil
}

// unmappedToolKeys warns about [tools.<name>] keys other than permission: the
// original's allowlist and denylist are bash command prefixes, which we would misread.
func unmappedToolKeys(path string, lines tomlfile.Lines, v any) []string {
	tools, _ := v.(map[string]any)
	var warns []string
	for _, name := range slices.Sorted(maps.Keys(tools)) {
		t, _ := tools[name].(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if k != "permission" {
				key := "tools." + name + "." + k
				warns = append(warns, fmt.Sprintf("%s:%d: profile key %q ignored (only permission is read from [tools.%s])", path, lines.Line(key), key, name))
			}
		}
	}
	return warns
}
