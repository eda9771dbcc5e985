package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

func TestFlagsReachTheOptions(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	var got *EditOptions
	keep := func(o *EditOptions) error { got = o; return nil }
	if err := cmdtest.Run(NewCmdSet(f, keep), "model", "qwen", "--project"); err != nil {
		t.Fatal(err)
	}
	if got.Key != "model" || got.Value != "qwen" || !got.Project || got.Global {
		t.Fatalf("set model qwen --project: %+v", got)
	}
	if err := cmdtest.Run(NewCmdUnset(f, keep), "agent", "--global"); err != nil {
		t.Fatal(err)
	}
	if got.Key != "agent" || got.Value != "" || !got.Global || got.Project {
		t.Fatalf("unset agent --global: %+v", got)
	}
	for _, args := range [][]string{{"model"}, {"a", "b", "c"}, {"--local", "a", "b"}} {
		if err := cmdtest.Run(NewCmdSet(f, func(*EditOptions) error { t.Fatal("ran"); return nil }), args...); err == nil {
			t.Errorf("set %v was taken", args)
		}
	}
	if err := cmdtest.Run(NewCmdShow(f, func(*ShowOptions) error { t.Fatal("ran"); return nil }), "model"); err == nil {
		t.Error("show took an argument")
	}
}

func TestBothFilesIsAUsageError(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	for _, cmd := range [][]string{{"set", "model", "x"}, {"unset", "model"}} {
		c := NewCmdConfig(f)
		err := cmdtest.Run(c, append(cmd, "--global", "--project")...)
		var exit *cmdutil.Exit
		if !errors.As(err, &exit) || exit.Code != cmdutil.ExitUsage || err.Error() != "give --global or --project, not both" {
			t.Fatalf("%v: %v", cmd, err)
		}
	}
}

// set writes the global file, show reads it back with its origin, unset removes
// it from the file that sets it; a bad value names the key and changes nothing.
func TestSetShowUnset(t *testing.T) {
	f, stdout, _ := cmdtest.Factory(t)
	xdg, _ := f.LookupEnv("XDG_CONFIG_HOME")
	file := filepath.Join(xdg, "albert-code", "config.toml")

	if err := cmdtest.Run(NewCmdConfig(f), "set", "compaction.threshold", "0.6"); err != nil {
		t.Fatal(err)
	}
	if want := "Saved compaction.threshold = \"0.6\" in " + file + " (global config).\n"; stdout.String() != want {
		t.Fatalf("set printed %q, want %q", stdout.String(), want)
	}
	if data, err := os.ReadFile(file); err != nil || !strings.Contains(string(data), "threshold = 0.6") {
		t.Fatalf("%s: %q %v", file, data, err)
	}

	stdout.Reset()
	if err := cmdtest.Run(NewCmdConfig(f), "show"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "0.6") || !strings.Contains(stdout.String(), file) {
		t.Fatalf("show does not give the value and its file:\n%s", stdout.String())
	}

	err := cmdtest.Run(NewCmdConfig(f), "set", "compaction.threshold", "2")
	var exit *cmdutil.Exit
	if !errors.As(err, &exit) || exit.Code != cmdutil.ExitUsage || !strings.Contains(err.Error(), "compaction.threshold") {
		t.Fatalf("set 2: %v", err)
	}

	stdout.Reset()
	if err := cmdtest.Run(NewCmdConfig(f), "unset", "compaction.threshold"); err != nil {
		t.Fatal(err)
	}
	if want := "Removed compaction.threshold from " + file + " (global config).\n"; stdout.String() != want {
		t.Fatalf("unset printed %q, want %q", stdout.String(), want)
	}
	if data, _ := os.ReadFile(file); strings.Contains(string(data), "threshold") {
		t.Fatalf("still set:\n%s", data)
	}
}
