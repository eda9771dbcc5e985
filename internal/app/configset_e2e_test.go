package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `config set` and `config unset` edit the user's file in place for scripts, with
// the terminal UI's checks: a bad value or a global-only key in the project is a
// usage error naming the key, and the file is left as it was.
func TestConfigSetAndUnsetFromTheCommandLine(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	mine := "# mine\nmodel = \"qwen\" # quick\n"
	h.globalConfig(mine)
	file := filepath.Join(filepath.Dir(filepath.Dir(h.home)), "xdg", "albert-code", "config.toml")
	read := func() string {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}

	r := h.run("config", "set", "compaction.threshold", "0.6")
	if r.code != ExitOK || !strings.Contains(r.stdout, "Saved compaction.threshold = \"0.6\" in "+file+" (global config).") {
		t.Fatalf("set: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if got, want := read(), mine+"\n[compaction]\nthreshold = 0.6\n"; got != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
	for args, want := range map[string]string{
		"config set sandbox.mode off --project": "sandbox.mode is read from your global config only",
		"config set compaction.threshold 2":     "compaction.threshold: invalid value \"2\": want a fraction above 0 and at most 1",
		"config unset agent":                    "agent is not set in " + file,
	} {
		r := h.run(strings.Fields(args)...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d stderr %q, want %q", args, r.code, r.stderr, want)
		}
	}
	r = h.run("config", "unset", "model")
	if r.code != ExitOK || read() != "# mine\n\n[compaction]\nthreshold = 0.6\n" {
		t.Fatalf("unset: exit %d stderr %q file:\n%s", r.code, r.stderr, read())
	}
}
