// Package fakemodel is a scripted OpenAI chat-completions server on loopback,
// so agent behaviour can be tested end to end, and benchmarked against other
// agents, over the real wire format without a real model.
//
// A Script is a list of Turns; each POST /v1/chat/completions consumes the
// next one and answers it as server-sent events when the request streams, or as
// one chat.completion otherwise. Turns can fragment tool calls, report usage,
// fail with Albert- or OpenAI-shaped errors, wait, hang or drop the connection.
// POST /v1/messages answers the same turns in Anthropic's Messages wire
// (anthropic.go), for Claude Code and the Anthropic SDKs.
// Every request is recorded for assertions. Scripts also load from JSON files
// (LoadScript), which is how cmd/fakemodel serves third-party agents.
package fakemodel
