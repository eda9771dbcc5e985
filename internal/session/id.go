package session

import (
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
)

// idTimeLayout puts the UTC creation time first so that IDs sort by creation time
// (to the second) and a user can read when a session started from its name.
const idTimeLayout = "20060102T150405"

// newID returns an ID such as 20261130T045200-1a2b3c4d. The 8 random hex digits
// (32 bits) make two sessions created in the same second distinct; Create still
// creates the folder exclusively and retries on the rare collision.
func newID(now time.Time) (string, error) {
	u, err := uuid.NewRandom()
	if err != nil {
		return "", fmt.Errorf("new session id: %w", err)
	}
	hex := strings.ReplaceAll(u.String(), "-", "")[:8]
	return now.UTC().Format(idTimeLayout) + "-" + hex, nil
}

// shortID is the part of id after its last '-' or '_': the random hex of our IDs and
// of the original tool's folder names (session_20260312_101500_9f8e7d6c). Users may
// type a prefix of it instead of the whole ID.
func shortID(id string) string {
	if i := strings.LastIndexAny(id, "-_"); i >= 0 {
		return id[i+1:]
	}
	return id
}

// checkRef rejects references that could escape the store folder: an ID may come
// from an editor over ACP, not only from the user's keyboard.
func checkRef(ref string) error {
	switch {
	case ref == "":
		return fmt.Errorf("empty session id: give an id or a prefix (see \"albert-code sessions list\")")
	case strings.ContainsAny(ref, `/\`+"\x00"), strings.HasPrefix(ref, "."):
		return fmt.Errorf("invalid session id %q: ids contain no path separators and do not start with '.'", ref)
	}
	return nil
}

// matches reports whether the user's ref (case-insensitive) is a prefix of id or of
// its short part.
func matches(id, ref string) bool {
	id, ref = strings.ToLower(id), strings.ToLower(ref)
	return strings.HasPrefix(id, ref) || strings.HasPrefix(shortID(id), ref)
}
