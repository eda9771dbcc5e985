// Package sensitive names the paths a tool may not touch as freely as the rest: the
// secrets no tool reads (keys, credentials, this program's own configuration), and
// the control files whose change would arm later runs (git's config and hooks, our
// project configuration, MCP server lists). The permission policy, the file tools
// and the OS sandbox all read the same lists from here.
package sensitive

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// homeSecrets are the secret files and folders below the user's home, relative to it.
var homeSecrets = []string{
	".albert-code",            // our keys (.env), sessions, profiles
	".config/albert-code",     // our global configuration
	".vibe",                   // the original tool's home, which holds its .env
	".ssh",                    //
	".aws",                    //
	".config/gcloud",          //
	".azure",                  //
	".netrc",                  //
	".git-credentials",        //
	".config/gh",              // GitHub CLI tokens
	".docker/config.json",     // registry credentials
	".kube",                   //
	".gnupg",                  //
	".password-store",         //
	".local/share/keyrings",   // GNOME keyring
	".config/kwalletrc",       //
	".local/share/kwalletd",   // KDE wallet
	".npmrc",                  // registry tokens
	".pypirc",                 //
	".cargo/credentials.toml", //
}

// Secrets returns the absolute secret paths for a user whose home is home and whose
// albert-code home is appHome (ALBERT_CODE_HOME, which may lie elsewhere), plus
// extra (the user's [sandbox] deny_read). Empty arguments are skipped. The global
// configuration's folder is a secret wherever $XDG_CONFIG_HOME puts it: written, it
// would turn the sandbox off and lift these very rules for the next run.
func Secrets(home, appHome string, extra ...string) []string {
	var out []string
	if home != "" {
		for _, rel := range homeSecrets {
			out = append(out, filepath.Join(home, rel))
		}
	}
	if xdg := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(xdg) {
		out = append(out, filepath.Join(filepath.Clean(xdg), "albert-code"))
	}
	if appHome != "" {
		out = append(out, filepath.Clean(appHome))
	}
	for _, e := range extra {
		if e = expandHome(e, home); filepath.IsAbs(e) {
			out = append(out, filepath.Clean(e))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// DefaultSecrets is Secrets for the current user, from $HOME and $ALBERT_CODE_HOME.
func DefaultSecrets(extra ...string) []string {
	home, _ := os.UserHomeDir()
	appHome := os.Getenv("ALBERT_CODE_HOME")
	return Secrets(home, appHome, extra...)
}

// IsSecret reports whether path, absolute and with its links already resolved, is one
// of secrets or lies below one, and returns that secret.
func IsSecret(secrets []string, path string) (string, bool) {
	path = filepath.Clean(path)
	for _, s := range secrets {
		if Within(s, path) {
			return s, true
		}
	}
	return "", false
}

// Within reports whether path is dir or lies below it; both are cleaned absolute paths.
func Within(dir, path string) bool {
	if dir == path {
		return true
	}
	if dir == string(filepath.Separator) {
		return strings.HasPrefix(path, dir)
	}
	return strings.HasPrefix(path, dir+string(filepath.Separator))
}

func expandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}

// ProcessFiles is where every process's environment and command line can be read,
// the agent's own API keys among them (/proc/self/environ). The file tools refuse it
// as a secret; commands see a /proc of their own, in their PID namespace, so it is
// not among the paths the sandbox hides.
const ProcessFiles = "/proc"

// Refused is IsSecret less the user's explicit exceptions: path is refused when it
// lies in one of secrets or in ProcessFiles, and in none of allowed (absolute paths,
// or ~/ paths, from [permissions] allow_secret in the user's global configuration).
func Refused(secrets, allowed []string, path string) (string, bool) {
	s, ok := IsSecret(append(slices.Clip(secrets), ProcessFiles), path)
	if !ok {
		return "", false
	}
	home, _ := os.UserHomeDir()
	for _, a := range allowed {
		if a = expandHome(a, home); filepath.IsAbs(a) && Within(filepath.Clean(a), filepath.Clean(path)) {
			return "", false
		}
	}
	return s, true
}

// AllowSecretHint tells a user how to let tools reach the secret path, the one way
// there is: naming it in their own global configuration. A project file cannot.
func AllowSecretHint(path string) string {
	return fmt.Sprintf("Only the user can allow it, in their global config file (~/.config/albert-code/config.toml): [permissions] allow_secret = [%q]", path)
}

// AllowControlHint tells a user how to let writes to a control file run without asking.
func AllowControlHint(rel string) string {
	return fmt.Sprintf("To stop asking, the user can name it in their global config file (~/.config/albert-code/config.toml): [permissions] allow_control = [%q]", rel)
}
