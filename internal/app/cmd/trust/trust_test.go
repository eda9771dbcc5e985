package trust

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
	"github.com/etalab-ia/albert-code/internal/trust"
)

func TestFlagsReachTheOptions(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	wd, _ := f.Getwd()
	var got *Options
	keep := func(o *Options) error { got = o; return nil }
	if err := cmdtest.Run(NewCmdTrust(f, keep)); err != nil || got.Dir != wd || got.Remove {
		t.Fatalf("trust: %+v %v", got, err)
	}
	if err := cmdtest.Run(NewCmdTrust(f, keep), "/src/x", "--remove"); err != nil || got.Dir != "/src/x" || !got.Remove {
		t.Fatalf("trust /src/x --remove: %+v %v", got, err)
	}
	if err := cmdtest.Run(NewCmdTrust(f, func(*Options) error { t.Fatal("ran"); return nil }), "a", "b"); err == nil {
		t.Fatal("two folders were taken")
	}
}

// The answer is kept in the home's trust file, and --remove records a refusal
// (not a forgetting): the UI does not ask again.
func TestTrustAndRemove(t *testing.T) {
	f, stdout, _ := cmdtest.Factory(t)
	home, _ := f.HomeDir()
	dir := filepath.Join(t.TempDir(), "repo")
	ts, err := trust.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmdtest.Run(NewCmdTrust(f, nil), dir); err != nil {
		t.Fatal(err)
	}
	if want := "trusted " + dir + " (" + ts.Path() + ")\n"; stdout.String() != want {
		t.Fatalf("printed %q, want %q", stdout.String(), want)
	}
	if st, err := ts.Status(dir); err != nil || st != trust.Trusted {
		t.Fatalf("status %v %v", st, err)
	}
	stdout.Reset()
	if err := cmdtest.Run(NewCmdTrust(f, nil), dir, "--remove"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "untrusted "+dir) {
		t.Fatalf("printed %q", stdout.String())
	}
	if st, err := ts.Status(dir); err != nil || st != trust.Untrusted {
		t.Fatalf("status %v %v", st, err)
	}
}
