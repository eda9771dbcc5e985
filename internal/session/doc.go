// Package session keeps conversations on disk so that a crash loses at most the line
// being written, and so that any past conversation can be listed, resumed or deleted.
//
// Each session is a folder <dir>/<id>/ holding messages.jsonl (one llm.Message per line,
// append-only, fsynced per Append) and meta.json (replaced atomically). docs/sessions.md
// describes the format, its versions and the recovery rules.
package session
