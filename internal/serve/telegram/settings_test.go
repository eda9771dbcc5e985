package telegram

import (
	"strings"
	"testing"
)

func TestParseSettings(t *testing.T) {
	t.Parallel()
	s, err := ParseSettings("bot.yml", []byte(`
allowed_chats: [42, -1001234567890]
on_busy: reply
queue_limit: 2
max_upload: 5MiB
default:
  model: albert-large
  thinking: high
  continue: false
  append_system_prompt: be brief
chats:
  -1001234567890:
    model: albert-small
    workspace: team
    allowed_users: [7, 8]
  99:
`))
	if err != nil {
		t.Fatal(err)
	}
	if s.AllowAll || s.OnBusy != BusyReply || s.QueueLimit != 2 || s.MaxUpload != 5<<20 {
		t.Errorf("settings %+v", s)
	}
	team := s.Chat(-1001234567890)
	if team.Model != "albert-small" || team.Effort != "high" || team.Workspace != "team" || *team.Continue || team.AppendSystemPrompt != "be brief" {
		t.Errorf("team chat %+v", team)
	}
	if got := s.Chat(42); got.Model != "albert-large" || got.Workspace != "" {
		t.Errorf("chat 42 %+v", got)
	}
}

func TestParseSettingsDefaults(t *testing.T) {
	t.Parallel()
	s, err := ParseSettings("bot.yml", []byte("allow_all: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.OnBusy != BusyQueue || s.QueueLimit != DefaultQueueLimit || s.MaxUpload != DefaultMaxUpload {
		t.Errorf("defaults %+v", s)
	}
}

func TestParseSettingsProblemsNameTheKey(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, yaml, want string }{
		{"no allow-list", "default: {model: x}\n", "bot.yml: allowed_chats: no chat is allowed"},
		{"empty file", "", "want a mapping"},
		{"not YAML", "allowed_chats: [1\n", "bot.yml: not valid YAML"},
		{"typo in a key", "allowed_chat: [1]\n", "bot.yml:1: allowed_chat: unknown key; known keys: allow_all, allowed_chats"},
		{"chat id not a number", "allowed_chats: [1, bob]\n", "bot.yml:1: allowed_chats[1]: want a chat id"},
		{"user id not a number", "chats:\n  5:\n    allowed_users: [alice]\n", "bot.yml:3: chats.5.allowed_users[0]: want a user id"},
		{"chats key not an id", "chats:\n  team: {}\n", "bot.yml:2: chats.team: want a chat id"},
		{"unknown chat key", "chats:\n  5:\n    modle: x\n", "bot.yml:3: chats.5.modle: unknown key; known keys: model"},
		{"allowed_users in default", "allow_all: true\ndefault:\n  allowed_users: [1]\n", "default.allowed_users: allowed_users belongs in a chat's own section"},
		{"allow_all not a bool", "allow_all: yes please\n", "allow_all: want true or false"},
		{"bad busy policy", "allow_all: true\non_busy: wait\n", `on_busy: want queue or reply, got "wait"`},
		{"bad size", "allow_all: true\nmax_upload: big\n", "max_upload: want a size"},
		{"duplicate key", "allow_all: true\nallow_all: false\n", "allow_all: given twice"},
		{"effort and thinking disagree", "allow_all: true\ndefault: {effort: low, thinking: high}\n", "default.thinking: effort and thinking disagree"},
		{"continue not a bool", "allow_all: true\ndefault: {continue: maybe}\n", "default.continue: want true or false"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseSettings("bot.yml", []byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant %q", err, tc.want)
			}
		})
	}
}

func TestAllowed(t *testing.T) {
	t.Parallel()
	s, err := ParseSettings("bot.yml", []byte(`
allowed_chats: [1]
chats:
  2: {model: m}
  3: {allowed_users: [30]}
`))
	if err != nil {
		t.Fatal(err)
	}
	open, err := ParseSettings("bot.yml", []byte("allow_all: true\nchats:\n  3: {allowed_users: [30]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		s          *Settings
		chat, user int64
		want       bool
	}{
		{s, 1, 10, true},   // listed
		{s, 2, 10, true},   // has a section
		{s, 4, 10, false},  // unknown chat
		{s, 3, 30, true},   // allowed user
		{s, 3, 31, false},  // other user in a restricted chat
		{s, -1, 10, false}, // another sign is another chat
		{open, 4, 10, true},
		{open, 3, 31, false}, // allow_all keeps a chat's user list
	}
	for _, tc := range tests {
		if got := tc.s.Allowed(tc.chat, tc.user); got != tc.want {
			t.Errorf("Allowed(%d, %d) = %t, want %t", tc.chat, tc.user, got, tc.want)
		}
	}
}
