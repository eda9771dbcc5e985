// Package migrate brings in what the original Python albert-code left in its home
// (~/.albert-code, ours too): it imports its sessions from logs/session into our
// session folder, copying so the originals stay as the backup, and reports on the
// files that are read in place (config.toml, agents/, throttle_state.json, .env).
// Nothing of the original's is changed or deleted.
package migrate
