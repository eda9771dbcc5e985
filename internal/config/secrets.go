package config

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrMissingAPIKey is returned (wrapped) by APIKey when a provider's key is not set.
var ErrMissingAPIKey = errors.New("missing API key")

// Secrets looks up API keys in the real environment first, then in <home>/.env. The
// order is the reverse of the original, whose .env silently overrode a key exported
// for one run (notes §2.13, §7.2 item 11). Keys are only ever read, never written.
type Secrets struct {
	lookup  func(string) (string, bool)
	dotenv  map[string]string
	envPath string
}

// LoadSecrets reads the .env file in home, if there is one.
func LoadSecrets(home string, lookup func(string) (string, bool)) (*Secrets, error) {
	s := &Secrets{lookup: lookup, envPath: filepath.Join(home, ".env")}
	data, err := os.ReadFile(s.envPath)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read secrets: %w", err)
	}
	if s.dotenv, err = parseDotenv(s.envPath, data); err != nil {
		return nil, err
	}
	return s, nil
}

// Lookup returns the value of name and where it was found ("env" or the .env path).
func (s *Secrets) Lookup(name string) (value, from string, ok bool) {
	if v, ok := s.lookup(name); ok && v != "" {
		return v, "env", true
	}
	if v, ok := s.dotenv[name]; ok && v != "" {
		return v, s.envPath, true
	}
	return "", "", false
}

// APIKey returns the key of the named provider: "" with no error for keyless servers
// (Ollama, llama.cpp), an error wrapping ErrMissingAPIKey that names the variable to
// set when the key is missing.
func (c *Config) APIKey(provider string) (string, error) {
	p, err := c.Provider(provider)
	if err != nil {
		return "", err
	}
	if p.APIKeyEnv == "" {
		return "", nil
	}
	if v, _, ok := c.secrets.Lookup(p.APIKeyEnv); ok {
		return v, nil
	}
	return "", fmt.Errorf("%w for provider %q: set %s in the environment or in %s",
		ErrMissingAPIKey, p.Name, p.APIKeyEnv, c.secrets.envPath)
}

// parseDotenv reads KEY=VALUE lines: blank lines and # comments are skipped, an
// `export ` prefix is allowed, values may be single-quoted (literal) or double-quoted
// (with \n, \t, \" and \\ escapes), and an unquoted value ends at " #".
func parseDotenv(path string, data []byte) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		key, val, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || !validEnvName(key) {
			return nil, fmt.Errorf("%s:%d: expected KEY=VALUE", path, n)
		}
		v, err := dotenvValue(strings.TrimSpace(val))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %v", path, n, key, err)
		}
		out[key] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
}

func dotenvValue(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	switch q := v[0]; q {
	case '\'', '"':
		end := closingQuote(v, q)
		if end < 0 {
			return "", errors.New("unterminated quoted value")
		}
		if rest := strings.TrimSpace(v[end+1:]); rest != "" && !strings.HasPrefix(rest, "#") {
			return "", errors.New("unexpected text after the closing quote")
		}
		if q == '\'' {
			return v[1:end], nil
		}
		return unescape(v[1:end]), nil
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v), nil
}

func closingQuote(v string, q byte) int {
	for i := 1; i < len(v); i++ {
		if q == '"' && v[i] == '\\' {
			i++
			continue
		}
		if v[i] == q {
			return i
		}
	}
	return -1
}

func unescape(s string) string {
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\\`, `\`)
	return r.Replace(s)
}

func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}
