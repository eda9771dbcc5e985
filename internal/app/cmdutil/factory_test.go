package cmdutil_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// --workdir moves the process once, into the folder given, and a folder that
// cannot be entered is a usage error naming the flag.
func TestEnterWorkDirMovesOnlyWhenAsked(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	var moves []string
	f.Chdir = func(dir string) error {
		moves = append(moves, dir)
		if dir == "/missing" {
			return os.ErrNotExist
		}
		return nil
	}
	here, _ := f.Getwd()
	if wd, err := f.EnterWorkDir(""); err != nil || wd != here || len(moves) != 0 {
		t.Fatalf("no --workdir: wd %q, err %v, moves %v", wd, err, moves)
	}
	if _, err := f.EnterWorkDir("/elsewhere"); err != nil || len(moves) != 1 || moves[0] != "/elsewhere" {
		t.Fatalf("--workdir /elsewhere: err %v, moves %v", err, moves)
	}
	_, err := f.EnterWorkDir("/missing")
	var exit *cmdutil.Exit
	if !errors.As(err, &exit) || exit.Code != cmdutil.ExitUsage || !strings.Contains(err.Error(), "--workdir") {
		t.Fatalf("--workdir /missing: %v", err)
	}
}

// The configuration is read from the Factory's environment (its home), not the
// process's: a test's settings never leak into the next.
func TestEnvHereReadsTheFactorysHome(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	home, err := f.HomeDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("active_model = \"nonesuch\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := f.EnvHere()
	if err == nil {
		e.Close()
		t.Fatal("a configuration naming an unknown model loaded")
	}
	var exit *cmdutil.Exit
	if !errors.As(err, &exit) || exit.Code != cmdutil.ExitUsage || !strings.Contains(err.Error(), "nonesuch") {
		t.Fatalf("err %v", err)
	}
	if err := os.Remove(filepath.Join(home, "config.toml")); err != nil {
		t.Fatal(err)
	}
	e, err = f.EnvHere()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if wd, _ := f.Getwd(); e.WorkDir != wd || e.Config.Home != home {
		t.Fatalf("env of %s with home %s, want %s and %s", e.WorkDir, e.Config.Home, wd, home)
	}
}

func TestExitCarriesItsCode(t *testing.T) {
	err := cmdutil.Failed(errors.New("boom"))
	var exit *cmdutil.Exit
	if !errors.As(err, &exit) || exit.Code != cmdutil.ExitError || err.Error() != "boom" {
		t.Fatalf("%#v", err)
	}
	if (&cmdutil.Exit{Code: cmdutil.ExitLimit}).Error() != "" {
		t.Fatal("an exit without an error has a message")
	}
}

func TestStreamsOfBuffersAreNoTerminal(t *testing.T) {
	s := &cmdutil.IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
	if s.InIsTerminal() || s.ErrIsTerminal() {
		t.Fatal("a buffer is taken for a terminal")
	}
}

func TestOutput(t *testing.T) {
	if got := cmdutil.CountOf(1, "job") + ", " + cmdutil.CountOf(2, "job") + ", " + cmdutil.CountOf(0, "file"); got != "1 job, 2 jobs, 0 files" {
		t.Fatal(got)
	}
	var b bytes.Buffer
	if err := cmdutil.PrintJSON(&b, map[string]int{"a": 1}); err != nil || b.String() != "{\n  \"a\": 1\n}\n" {
		t.Fatalf("%q %v", b.String(), err)
	}
}

// NO_COLOR (any non-empty value) and TERM=dumb turn colour off, read from the
// Factory's environment.
func TestColorWanted(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"TERM": "xterm-256color"}, true},
		{map[string]string{"NO_COLOR": ""}, true},
		{map[string]string{"NO_COLOR": "1"}, false},
		{map[string]string{"TERM": "dumb"}, false},
	} {
		f, _, _ := cmdtest.Factory(t)
		f.LookupEnv = func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		if got := f.ColorWanted(); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.env, got, tc.want)
		}
	}
}
