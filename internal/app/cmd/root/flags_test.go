package root

import (
	"slices"
	"testing"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/headless"
)

// The original albert-code's spellings: --prompt TEXT is -p with TEXT last (after
// a bare --resume's ID), a bare --prompt is -p alone, and --output streaming is
// stream-json; a bare --resume leaves its ID among the arguments for runAgent.
func TestOriginalFlagsBecomeOurs(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		wantArgs []string
		print    bool
		output   string
		resume   string
	}{
		{[]string{"--prompt=fix it"}, []string{"fix it"}, true, "text", ""},
		{[]string{"--prompt", "--output", "streaming"}, nil, true, string(headless.FormatStreamJSON), ""},
		{[]string{"--resume", "abc", "--prompt=go on"}, []string{"abc", "go on"}, true, "text", pickSession},
		{[]string{"--resume", "abc"}, []string{"abc"}, false, "text", pickSession},
		{[]string{"--resume=abc"}, nil, false, "text", "abc"},
		{[]string{"hello"}, []string{"hello"}, false, "text", ""},
	} {
		var f runFlags
		var got []string
		cmd := &cobra.Command{Use: "albert-code", Args: cobra.ArbitraryArgs}
		prompt := addOriginalFlags(cmd.Flags())
		cmd.Flags().StringVar(&f.output, "output", "text", "")
		cmd.Flags().Var(optionalID{&f.resume}, "resume", "")
		cmd.Flags().Lookup("resume").NoOptDefVal = optionalIDAbsent
		cmd.RunE = func(cmd *cobra.Command, args []string) error {
			got = applyOriginalFlags(cmd, &f, *prompt, args)
			return nil
		}
		cmd.SetArgs(tc.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if !slices.Equal(got, tc.wantArgs) || f.print != tc.print || f.output != tc.output || f.resume != tc.resume {
			t.Errorf("%v: args %q, print %v, output %q, resume %q", tc.args, got, f.print, f.output, f.resume)
		}
	}
}
