package migrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
)

func TestNothingToTakeIn(t *testing.T) {
	f, stdout, _ := cmdtest.Factory(t)
	home, _ := f.HomeDir()
	if err := cmdtest.Run(NewCmdMigrate(f, nil)); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	for _, want := range []string{
		"The original albert-code's files in " + home + ":\n",
		"config     none\n",
		"profiles   none\n",
		"sessions   0 imported into ",
		"throttle   no exhausted quota recorded\n",
		"proxies    none in .env\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}

// The original's profiles and the proxies of its .env are read in place, and the
// report says so with the folder and the variables' names.
func TestProfilesAndProxiesAreNamed(t *testing.T) {
	f, stdout, _ := cmdtest.Factory(t)
	home, _ := f.HomeDir()
	for rel, content := range map[string]string{
		"agents/review.toml": "display_name = \"review\"\n",
		".env":               "HTTPS_PROXY=http://proxy:3128\n",
	} {
		path := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmdtest.Run(NewCmdMigrate(f, nil)); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	if !strings.Contains(out, "profiles   1 in "+filepath.Join(home, "agents")+", read in place") ||
		!strings.Contains(out, "proxies    HTTPS_PROXY from "+filepath.Join(home, ".env")) {
		t.Errorf("report:\n%s", out)
	}
}

func TestTakesNoArgument(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	if err := cmdtest.Run(NewCmdMigrate(f, func(*Options) error { t.Fatal("ran"); return nil }), "now"); err == nil {
		t.Fatal("an argument was taken")
	}
}
