package root

import (
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/etalab-ia/albert-code/internal/headless"
)

// promptFlagAlone is --prompt's value when given without one, as the original's
// bare "-p" that reads the prompt from stdin or the arguments (optionalID's).
const promptFlagAlone = pickSession

// addOriginalFlags adds the original albert-code's spellings of our flags, so its
// scripts run unchanged: --prompt [TEXT] for -p, and (in applyOriginalFlags)
// --output streaming for stream-json. It returns where --prompt's value goes.
func addOriginalFlags(fl *pflag.FlagSet) *string {
	prompt := new(string)
	fl.Var(optionalID{prompt}, "prompt", "the original albert-code's name for -p: --prompt `TEXT` or --prompt=TEXT")
	fl.Lookup("prompt").NoOptDefVal = optionalIDAbsent
	return prompt
}

// applyOriginalFlags turns the original's spellings into ours and returns the
// arguments, with --prompt=TEXT's text last: a bare --resume takes the first
// argument as the session ID.
func applyOriginalFlags(cmd *cobra.Command, f *runFlags, prompt string, args []string) []string {
	if f.output == "streaming" {
		f.output = string(headless.FormatStreamJSON)
	}
	if !cmd.Flags().Changed("prompt") {
		return args
	}
	f.print = true
	if prompt == promptFlagAlone {
		return args
	}
	return append(slices.Clone(args), prompt)
}
