package config

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// ProxySetting is one proxy variable and where its value comes from: "env", the
// .env path, or "" when it is not set.
type ProxySetting struct {
	Name, Value, From string
}

// ProxySettings lists every variable of ProxyVars as this run sees it.
func (c *Config) ProxySettings() []ProxySetting {
	out := make([]ProxySetting, 0, len(ProxyVars))
	for _, name := range ProxyVars {
		s := ProxySetting{Name: name}
		if c.secrets != nil {
			s.Value, s.From, _ = c.secrets.Lookup(name)
		}
		out = append(out, s)
	}
	return out
}

// SaveProxy writes name='value' into <home>/.env, where the original's
// /proxy-setup kept it, replacing a line that sets name; an empty value removes the
// line. The other lines are kept as written; the file is created 0600, since it
// also holds API keys. It returns the file's path.
func (c *Config) SaveProxy(name, value string) (string, error) {
	if !slices.Contains(ProxyVars, name) {
		return "", fmt.Errorf("%s is not a proxy variable: want one of %s", name, strings.Join(ProxyVars, ", "))
	}
	if strings.ContainsAny(value, "'\n\r") {
		return "", fmt.Errorf("%s: the value must be one line without single quotes", name)
	}
	path := filepath.Join(c.Home, ".env")
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	setter := regexp.MustCompile(`^\s*(export\s+)?` + regexp.QuoteMeta(name) + `\s*=`)
	var lines []string
	if len(data) > 0 {
		lines = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	line := name + "='" + value + "'"
	done := false
	kept := lines[:0]
	for _, l := range lines {
		if setter.MatchString(l) {
			if !done && value != "" {
				kept = append(kept, line)
			}
			done = true
			continue
		}
		kept = append(kept, l)
	}
	if !done && value != "" {
		kept = append(kept, line)
	}
	if err := os.MkdirAll(c.Home, 0o700); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	tmp := path + ".tmp"
	out := strings.Join(kept, "\n")
	if out != "" {
		out += "\n"
	}
	if err := os.WriteFile(tmp, []byte(out), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return path, nil
}
