// Package telegram is the Telegram bot of `albert-code serve`: each allowed chat
// talks to the agent in its own workspace, one run at a time, with per-chat
// overrides of the model, effort and system prompts kept on disk, files in and
// out, and replies that give the agent the message replied to (a cron
// notification's job included). Deny by default: only the chats and users the
// YAML file names are served.
package telegram
