package telegram

import (
	"fmt"

	"github.com/etalab-ia/albert-code/internal/quantity"
)

// Busy policies: what a message gets while its chat's run is going.
const (
	// BusyQueue runs it after the current run, in order.
	BusyQueue = "queue"
	// BusyReply answers that the chat is busy and drops it, as the original did.
	BusyReply = "reply"
)

// Defaults of the YAML file, with their reasons.
const (
	// DefaultQueueLimit bounds the messages waiting in one chat; judgement: past
	// five, a user is better told to wait than surprised by a backlog of runs.
	DefaultQueueLimit = 5
	// DefaultMaxUpload is the cloud Bot API's getFile cap (20 MB): bigger files
	// cannot be downloaded from it anyway. A self-hosted Bot API server lifts it.
	DefaultMaxUpload = 20 << 20
)

// Settings is the bot's YAML file, validated.
type Settings struct {
	// AllowAll serves every chat; without it only the chats named are.
	AllowAll bool
	// AllowedChats are the chats served, besides the keys of Chats.
	AllowedChats []int64
	// Default applies to every chat; Chats to one, over Default.
	Default ChatConfig
	Chats   map[int64]ChatConfig
	// OnBusy is BusyQueue or BusyReply.
	OnBusy     string
	QueueLimit int
	// MaxUpload is the largest file a user may send, in bytes.
	MaxUpload int64
}

// ChatConfig is what the YAML says about a chat's runs. Empty strings are unset.
type ChatConfig struct {
	Model, Effort                    string
	SystemPrompt, AppendSystemPrompt string
	// Workspace is relative to the workspace root; empty means chat_<id>.
	Workspace string
	// Continue resumes the chat's latest session; nil means yes.
	Continue *bool
	// AllowedUsers, in a chat's own section, restricts who may talk in it.
	AllowedUsers []int64
}

// merge lays o over c: what o sets wins.
func (c ChatConfig) merge(o ChatConfig) ChatConfig {
	pick := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	pick(&c.Model, o.Model)
	pick(&c.Effort, o.Effort)
	pick(&c.SystemPrompt, o.SystemPrompt)
	pick(&c.AppendSystemPrompt, o.AppendSystemPrompt)
	pick(&c.Workspace, o.Workspace)
	if o.Continue != nil {
		c.Continue = o.Continue
	}
	if o.AllowedUsers != nil {
		c.AllowedUsers = o.AllowedUsers
	}
	return c
}

// Chat returns the YAML's configuration of chat id: Default, then its section.
func (s *Settings) Chat(id int64) ChatConfig {
	return s.Default.merge(s.Chats[id])
}

// parseSize reads a byte count: a number, or one with a unit (KiB, MiB, GiB,
// and the MB-style spellings taken as the same powers of two).
func parseSize(v string) (int64, error) {
	n, err := quantity.ParseSize(v, true)
	if err != nil {
		return 0, fmt.Errorf("want a size such as 20MiB or 52428800, got %q", v)
	}
	return n, nil
}
