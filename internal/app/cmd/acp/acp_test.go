package acp

import (
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
)

func TestFlagsReachTheOptions(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	var got *Options
	keep := func(o *Options) error { got = o; return nil }
	if err := cmdtest.Run(NewCmdACP(f, keep), "--agent", "plan", "--model", "albert-large", "--trust", "--setup"); err != nil {
		t.Fatal(err)
	}
	if got.Agent != "plan" || got.Model != "albert-large" || !got.Trust || !got.Setup {
		t.Fatalf("options: %+v", got)
	}
	if err := cmdtest.Run(NewCmdACP(f, func(*Options) error { t.Fatal("ran"); return nil }), "zed"); err == nil {
		t.Fatal("an argument was taken")
	}
}

// The editor's terminal sign-in runs this program's setup: `albert-code acp
// --setup` under albert-code, `albert-acp --setup` under albert-acp.
func TestSetupCommandNamesThisProgram(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, _, _ := cmdtest.Factory(t)
	var got *Options
	keep := func(o *Options) error { got = o; return nil }
	if err := cmdtest.Run(NewCmdACP(f, keep)); err != nil || !slices.Equal(got.SetupCommand, []string{exe, "acp", "--setup"}) {
		t.Fatalf("acp: %q %v", got.SetupCommand, err)
	}
	cmd := NewCmdACP(f, keep)
	cmd.Use = "albert-acp"
	if err := cmdtest.Run(cmd); err != nil || !slices.Equal(got.SetupCommand, []string{exe, "--setup"}) {
		t.Fatalf("albert-acp: %q %v", got.SetupCommand, err)
	}
}

// --setup reads keys one at a time: from a pipe it refuses and says what to do.
func TestSetupNeedsATerminal(t *testing.T) {
	f, stdout, _ := cmdtest.Factory(t)
	if err := cmdtest.Run(NewCmdACP(f, nil), "--setup"); !errors.Is(err, errSetupNeedsTerminal) {
		t.Fatalf("err %v", err)
	}
	if stdout.Len() != 0 {
		t.Fatalf("stdout %q", stdout.String())
	}
}
