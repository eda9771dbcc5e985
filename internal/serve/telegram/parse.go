package telegram

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/etalab-ia/albert-code/internal/serve/problems"
)

// LoadSettings reads and validates the bot's YAML file.
func LoadSettings(path string) (*Settings, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the telegram config: %w", err)
	}
	return ParseSettings(path, data)
}

// ParseSettings validates the YAML content of the file named name. Unknown keys
// and wrong types are errors naming the key: a typo in an allow-list must not
// quietly open or close the bot. A bot that allows nobody is refused too.
func ParseSettings(name string, data []byte) (*Settings, error) {
	p := &settingsParser{file: name}
	s := &Settings{OnBusy: BusyQueue, QueueLimit: DefaultQueueLimit, MaxUpload: DefaultMaxUpload, Chats: map[int64]ChatConfig{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, problems.List{{Where: name, Message: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, problems.List{{Where: name, Message: "want a mapping with allowed_chats (or allow_all: true), default and chats"}}
	}
	p.each(doc.Content[0], "", func(key string, k, v *yaml.Node) {
		switch key {
		case "allow_all":
			p.boolean(v, key, &s.AllowAll)
		case "allowed_chats":
			s.AllowedChats = p.ids(v, key, "chat")
		case "on_busy":
			if p.str(v, key, &s.OnBusy) && s.OnBusy != BusyQueue && s.OnBusy != BusyReply {
				p.add(v, key, fmt.Sprintf("want %s or %s, got %q", BusyQueue, BusyReply, s.OnBusy))
			}
		case "queue_limit":
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || n < 0 {
				p.add(v, key, "want a whole number, 0 or more, got "+describe(v))
			}
			s.QueueLimit = n
		case "max_upload":
			n, err := parseSize(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil {
				p.add(v, key, "want a size such as 20MiB or 52428800, got "+describe(v))
			}
			s.MaxUpload = n
		case "default":
			s.Default = p.chat(v, key, false)
		case "chats":
			p.chats(v, s)
		default:
			p.add(k, key, "unknown key; known keys: allow_all, allowed_chats, chats, default, max_upload, on_busy, queue_limit")
		}
	})
	if len(p.found) == 0 && !s.AllowAll && len(s.AllowedChats) == 0 && len(s.Chats) == 0 {
		p.found = append(p.found, problems.Problem{Where: name, Key: "allowed_chats",
			Message: "no chat is allowed: list the chat ids the bot serves (allowed_chats: [123456]), or say allow_all: true to serve anyone who finds it"})
	}
	if len(p.found) > 0 {
		return nil, p.found
	}
	return s, nil
}

type settingsParser struct {
	file  string
	found problems.List
}

func (p *settingsParser) add(n *yaml.Node, key, msg string) {
	p.found = append(p.found, problems.Problem{Where: p.file, Line: n.Line, Key: key, Message: msg})
}

// each calls f on every key of mapping m, refusing duplicates; path prefixes keys.
func (p *settingsParser) each(m *yaml.Node, path string, f func(key string, k, v *yaml.Node)) {
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		full := k.Value
		if path != "" {
			full = path + "." + k.Value
		}
		if seen[k.Value] {
			p.add(k, full, "given twice")
			continue
		}
		seen[k.Value] = true
		f(k.Value, k, v)
	}
}

func (p *settingsParser) str(v *yaml.Node, key string, dst *string) bool {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		p.add(v, key, "want a string, got "+describe(v))
		return false
	}
	*dst = v.Value
	return true
}

func (p *settingsParser) boolean(v *yaml.Node, key string, dst *bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
		p.add(v, key, "want true or false, got "+describe(v))
		return
	}
	*dst = v.Value == "true"
}

func (p *settingsParser) ids(v *yaml.Node, key, what string) []int64 {
	if v.Kind != yaml.SequenceNode {
		p.add(v, key, fmt.Sprintf("want a list of %s ids, got %s", what, describe(v)))
		return nil
	}
	out := []int64{}
	for i, n := range v.Content {
		id, err := strconv.ParseInt(n.Value, 10, 64)
		if n.Kind != yaml.ScalarNode || err != nil {
			p.add(n, fmt.Sprintf("%s[%d]", key, i), fmt.Sprintf("want a %s id (a whole number such as -1001234567890), got %s", what, describe(n)))
			continue
		}
		out = append(out, id)
	}
	return out
}

func (p *settingsParser) chats(v *yaml.Node, s *Settings) {
	if v.Kind != yaml.MappingNode {
		p.add(v, "chats", "want a mapping of chat ids to settings, got "+describe(v))
		return
	}
	p.each(v, "chats", func(key string, k, c *yaml.Node) {
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			p.add(k, "chats."+key, "want a chat id (a whole number such as -1001234567890) as the key")
			return
		}
		s.Chats[id] = p.chat(c, "chats."+key, true)
	})
}

var chatKeys = []string{"model", "effort", "thinking", "continue", "system_prompt", "append_system_prompt", "workspace", "allowed_users"}

// chat reads one chat's settings; users says whether allowed_users may appear.
func (p *settingsParser) chat(v *yaml.Node, path string, users bool) ChatConfig {
	var c ChatConfig
	if v.Tag == "!!null" {
		return c
	}
	if v.Kind != yaml.MappingNode {
		p.add(v, path, "want a mapping of "+strings.Join(chatKeys, ", ")+", got "+describe(v))
		return c
	}
	p.each(v, path, func(key string, k, n *yaml.Node) {
		full := path + "." + key
		switch key {
		case "model":
			p.str(n, full, &c.Model)
		case "effort", "thinking": // thinking is the original's name
			var e string
			if p.str(n, full, &e) && c.Effort != "" && c.Effort != e {
				p.add(n, full, "effort and thinking disagree: thinking is the original's name for effort, give one")
			}
			c.Effort = e
		case "system_prompt":
			p.str(n, full, &c.SystemPrompt)
		case "append_system_prompt":
			p.str(n, full, &c.AppendSystemPrompt)
		case "workspace":
			p.str(n, full, &c.Workspace)
		case "continue":
			var b bool
			p.boolean(n, full, &b)
			c.Continue = &b
		case "allowed_users":
			if !users {
				p.add(k, full, "allowed_users belongs in a chat's own section (chats.<id>.allowed_users)")
				return
			}
			c.AllowedUsers = p.ids(n, full, "user")
		default:
			known := slices.DeleteFunc(slices.Clone(chatKeys), func(s string) bool { return !users && s == "allowed_users" })
			p.add(k, full, "unknown key; known keys: "+strings.Join(known, ", "))
		}
	})
	return c
}

// describe names a node's kind for messages, with its value when short.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	if n.Tag == "!!null" {
		return "nothing"
	}
	v := n.Value
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	return strconv.Quote(v)
}
