// Package cmdtest holds the fakes the command families' unit tests share: a
// Factory whose streams are buffers and whose home, folder and clock are the
// test's own.
package cmdtest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// Factory is a Factory for a command's unit tests: streams in buffers, an
// empty home of its own (ALBERT_CODE_HOME), a working folder that is a temporary
// directory, a fixed clock, and no process state touched. The returned buffers
// are what the command printed.
func Factory(t testing.TB) (f *cmdutil.Factory, stdout, stderr *bytes.Buffer) {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	work := filepath.Join(root, "work")
	for _, d := range []string{home, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{
		"HOME":                        root,
		"ALBERT_CODE_HOME":            home,
		"XDG_CONFIG_HOME":             filepath.Join(root, "xdg"),
		"ALBERT_API_KEY":              "test-key",
		"ALBERT_CODE_NO_UPDATE_CHECK": "1",
	}
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	f = &cmdutil.Factory{
		IO:      &cmdutil.IOStreams{In: strings.NewReader(""), Out: stdout, ErrOut: stderr},
		Version: "v0.0.0-test",
		LookupEnv: func(k string) (string, bool) {
			v, ok := env[k]
			return v, ok
		},
		Getwd: func() (string, error) { return work, nil },
		Chdir: func(dir string) error {
			t.Fatalf("a unit test moved the process to %s", dir)
			return nil
		},
		Now: func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) },
	}
	return f, stdout, stderr
}
