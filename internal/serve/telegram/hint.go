package telegram

import "strings"

// systemHint is appended to every chat run's system prompt: how the answer is
// shown and how to send files, which only the bot knows.
const systemHint = `You are answering in a Telegram chat.
Write standard Markdown (headings, **bold**, *italic*, ` + "`code`" + `, fenced code blocks, lists, links, > quotes): the bot turns it into Telegram's formatting. Do not write HTML and do not escape characters for Telegram; long answers are split for you.
To send the user a file from your workspace, put [SEND_FILE: relative/path] on its own line, the path relative to your working folder; you may use several. Images arrive as photos, videos as videos, anything else as a document (50 MB at most). The tags are removed from the text the user sees.`

// appendPrompt is the hint, then the chat's own addition.
func appendPrompt(own string) string {
	if strings.TrimSpace(own) == "" {
		return systemHint
	}
	return systemHint + "\n\n" + own
}
