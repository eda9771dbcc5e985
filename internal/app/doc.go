// Package app is the composition root of albert-code and albert-acp: it parses the
// command line with cobra, loads the configuration and hands a ready agent to the face
// the command asks for: the terminal UI, headless mode (-p), the ACP server, or serve
// (HTTP API, OpenAI-compatible endpoint, MCP server, Telegram bot, cron scheduler). It
// also runs the commands around them (graph, sessions, config, cron, quota, trust,
// migrate). It is the only package that knows every other one.
package app
