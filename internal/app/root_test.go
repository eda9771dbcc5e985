package app

import (
	"os"
	"strings"
	"testing"

	rootcmd "github.com/etalab-ia/albert-code/internal/app/cmd/root"
	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
)

// The root command's refusals, in-process on a fake Factory: each is a usage
// error (exit 2) naming the flag or what is missing, before any configuration is read or
// any folder entered.
func TestRootRefusesBadInvocations(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", "--output", "yaml", "hi"}, `"yaml"`},
		{[]string{"-p"}, "no prompt: give one as an argument"},
		{[]string{"-p", "--resume"}, "--resume needs a session ID with -p"},
		{[]string{"--continue", "--resume", "x", "-p", "hi"}, "[continue resume]"},
		{[]string{"--sandbox", "maybe", "-p", "hi"}, `--sandbox "maybe": want on or off`},
		{[]string{"--workdir", "/nonexistent", "-p", "hi"}, "--workdir: " + os.ErrNotExist.Error()},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			f, _, _ := cmdtest.Factory(t)
			f.Chdir = func(string) error { return os.ErrNotExist }
			root := rootcmd.NewCmdRoot(f)
			err := cmdtest.Run(root, tc.args...)
			var stderr strings.Builder
			if code := reportExit(err, &stderr); code != ExitUsage || !strings.Contains(stderr.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q, want 2 with %q", code, stderr.String(), tc.want)
			}
		})
	}
}
