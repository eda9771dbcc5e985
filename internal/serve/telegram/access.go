package telegram

import "slices"

// Allowed reports whether user may talk to the bot in chat. A chat is served
// when allow_all is on, or it is listed in allowed_chats or has a section of
// its own under chats; a chat whose section lists allowed_users serves only
// them. Deny by default: the original served everyone when its list was empty.
func (s *Settings) Allowed(chat, user int64) bool {
	c, listed := s.Chats[chat]
	if !s.AllowAll && !listed && !slices.Contains(s.AllowedChats, chat) {
		return false
	}
	return len(c.AllowedUsers) == 0 || slices.Contains(c.AllowedUsers, user)
}
