package sandbox

import (
	"net/url"
	"slices"
	"strings"
)

// secretSuffixes and secretParts mark variable names that hold credentials by the
// common conventions; a name matches case-insensitively.
var (
	secretSuffixes = []string{"_KEY", "_TOKEN", "_SECRET", "_CREDENTIALS", "_APIKEY", "_PAT", "_PASSPHRASE",
		"_PASS", "_PWD", "_AUTH", "_DSN"} // SMTP_PASS, MYSQL_PWD, NPM_CONFIG__AUTH, SENTRY_DSN
	secretParts = []string{"PASSWORD", "PASSWD", "SECRET"}
	// secretNames are credentials whose names follow no convention.
	secretNames = []string{"API_KEY", "APIKEY", "TOKEN", "AUTH", "SSH_AUTH_SOCK", "GPG_AGENT_INFO", "KRB5CCNAME"}
)

// LooksSecret reports whether an environment variable named name may hold a
// credential, by its name or, for a URL, by a password in its user part
// (DATABASE_URL=postgres://u:pw@host) or a user name long enough to be a token
// (https://ghp_…@github.com, a Sentry DSN's key).
func LooksSecret(name, value string) bool {
	n := strings.ToUpper(name)
	if slices.Contains(secretNames, n) {
		return true
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	for _, p := range secretParts {
		if strings.Contains(n, p) {
			return true
		}
	}
	if strings.Contains(value, "://") && strings.Contains(value, "@") {
		if u, err := url.Parse(value); err == nil && u.User != nil {
			if _, ok := u.User.Password(); ok || len(u.User.Username()) >= tokenLength {
				return true
			}
		}
	}
	return false
}

// tokenLength is the shortest user name in a URL taken for a token. A judgement:
// GitHub's tokens are 40 characters, a Sentry key 32, and people's names are short.
const tokenLength = 20

// ScrubEnv returns env (KEY=VALUE entries) without the variables that look like
// secrets, except those named in passthrough ([sandbox] env_passthrough), and the
// names it dropped, for a note to the user.
func ScrubEnv(env []string, passthrough []string) (kept []string, dropped []string) {
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if LooksSecret(name, value) && !slices.ContainsFunc(passthrough, func(p string) bool { return strings.EqualFold(p, name) }) {
			dropped = append(dropped, name)
			continue
		}
		kept = append(kept, kv)
	}
	return kept, dropped
}
