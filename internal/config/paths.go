package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// HomeDir returns the application directory: $ALBERT_CODE_HOME, else ~/.albert-code
// (the original's layout, notes §2.13).
func HomeDir(lookup func(string) (string, bool)) (string, error) {
	if v, ok := lookup(EnvHome); ok && v != "" {
		return filepath.Abs(v)
	}
	h, err := userHome(lookup)
	if err != nil {
		return "", err
	}
	return filepath.Join(h, defaultHomeDirName), nil
}

// GlobalFile returns $XDG_CONFIG_HOME/albert-code/config.toml, XDG_CONFIG_HOME
// defaulting to ~/.config as the XDG Base Directory specification says.
func GlobalFile(lookup func(string) (string, bool)) (string, error) {
	if v, ok := lookup(envXDGConfigHome); ok && filepath.IsAbs(v) {
		return filepath.Join(v, appDirName, "config.toml"), nil
	}
	h, err := userHome(lookup)
	if err != nil {
		return "", err
	}
	return filepath.Join(h, ".config", appDirName, "config.toml"), nil
}

// FindProjectDir returns the nearest directory, from dir upwards, that holds a
// .albert-code.toml or a .vibe.toml; "" if none does.
func FindProjectDir(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		for _, name := range []string{projectFileName, vibeProjectFileName} {
			if exists(filepath.Join(dir, name)) {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func userHome(lookup func(string) (string, bool)) (string, error) {
	if v, ok := lookup("HOME"); ok && v != "" {
		return v, nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home directory: %w (set %s)", err, EnvHome)
	}
	return h, nil
}
