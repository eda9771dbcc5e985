// Package firstrun stores what the first-run setup screen asks: the provider's API
// key in <home>/.env, where the configuration already looks for keys, and the
// chosen model in the global config file.
package firstrun

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Choice is what the user picked on the setup screen.
type Choice struct {
	// KeyEnv names the variable of the provider's key; empty for keyless servers.
	KeyEnv, Key string
	// Model is written as the configuration's `model` when not empty.
	Model string
}

// Save writes c: the key into envFile (created 0600, other lines kept) and the
// model into configFile (its top-level `model` replaced or added, the rest kept).
func Save(envFile, configFile string, c Choice) error {
	if c.KeyEnv != "" {
		if strings.ContainsAny(c.Key, "\n\r'") || strings.TrimSpace(c.Key) == "" {
			return errors.New("the API key must be one line without quotes: paste it again")
		}
		if err := setLine(envFile, envLine(c.KeyEnv), c.KeyEnv+"='"+strings.TrimSpace(c.Key)+"'"); err != nil {
			return fmt.Errorf("save the API key in %s: %w", envFile, err)
		}
	}
	if c.Model != "" {
		if err := setModel(configFile, c.Model); err != nil {
			return fmt.Errorf("save the model in %s: %w", configFile, err)
		}
	}
	return nil
}

func envLine(name string) *regexp.Regexp {
	return regexp.MustCompile(`^\s*(export\s+)?` + regexp.QuoteMeta(name) + `\s*=`)
}

// setLine replaces the first line matching re with line, or appends it.
func setLine(path string, re *regexp.Regexp, line string) error {
	lines, err := readLines(path)
	if err != nil {
		return err
	}
	found := false
	for i, l := range lines {
		if re.MatchString(l) {
			lines[i], found = line, true
			break
		}
	}
	if !found {
		lines = append(lines, line)
	}
	return writeAtomic(path, lines, 0o600)
}

var modelKey = regexp.MustCompile(`^\s*model\s*=`)

// setModel sets the top-level `model` key: the line before the first table is
// replaced, or a new first line is added.
func setModel(path, model string) error {
	lines, err := readLines(path)
	if err != nil {
		return err
	}
	line := "model = " + strconv.Quote(model)
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "[") {
			break
		}
		if modelKey.MatchString(l) {
			lines[i] = line
			return writeAtomic(path, lines, 0o644)
		}
	}
	return writeAtomic(path, append([]string{line}, lines...), 0o644)
}

func readLines(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" {
		return nil, nil
	}
	return strings.Split(s, "\n"), nil
}

// writeAtomic replaces path with lines through a temporary file, so a crash never
// leaves half a config; an existing file keeps its permissions.
func writeAtomic(path string, lines []string, perm fs.FileMode) error {
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".setup-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
