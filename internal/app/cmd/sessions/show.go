package sessions

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/termsafe"
)

// ShowOptions are `sessions show`'s.
type ShowOptions struct {
	IO    *cmdutil.IOStreams
	Store storeFunc
	// ID is a session ID or a unique prefix of one.
	ID string
	// JSON prints the messages as JSON lines.
	JSON bool
}

// NewCmdShow is `sessions show ID`; runF replaces the printing.
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{IO: f.IO, Store: storeOf(f)}
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Print a session's messages",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the messages as JSON lines")
	return cmd
}

func showRun(opts *ShowOptions) error {
	st, _, err := opts.Store()
	if err != nil {
		return err
	}
	log, msgs, err := st.Open(opts.ID)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	defer log.Close()
	for _, w := range log.Warnings() {
		fmt.Fprintln(opts.IO.ErrOut, "albert-code: warning:", termsafe.Printable(w))
	}
	out := opts.IO.Out
	if opts.JSON {
		enc := json.NewEncoder(out)
		for _, m := range msgs {
			if err := enc.Encode(m); err != nil {
				return err
			}
		}
		return nil
	}
	meta := log.Meta()
	fmt.Fprintf(out, "session %s  %s  model %s  tokens in %d / out %d  cost %.4f\n\n",
		termsafe.Printable(meta.ID), termsafe.Printable(meta.Cwd), termsafe.Printable(meta.Model), meta.Usage.InputTokens, meta.Usage.OutputTokens, meta.Cost)
	for _, m := range msgs {
		printMessage(out, m)
	}
	return nil
}

// printMessage renders one message of a saved session, without the escape
// sequences and control characters a hostile model may have saved in it (OSC 52
// would write the user's clipboard when shown).
func printMessage(w io.Writer, m llm.Message) {
	label := string(m.Role)
	switch {
	case m.Summary:
		label = "summary"
	case m.Synthetic:
		label += " (automatic)"
	case m.Role == llm.RoleTool:
		label = "result of " + m.ToolName
		if m.IsError {
			label += " (error)"
		}
	}
	fmt.Fprintf(w, "── %s\n", termsafe.Printable(label))
	if m.Reasoning != "" {
		fmt.Fprintf(w, "[reasoning] %s\n", strings.TrimSpace(termsafe.Printable(m.Reasoning)))
	}
	if m.Content != "" {
		fmt.Fprintln(w, strings.TrimRight(termsafe.Printable(m.Content), "\n"))
	}
	for _, c := range m.ToolCalls {
		fmt.Fprintf(w, "→ %s %s\n", termsafe.Printable(c.Name), termsafe.Printable(c.Arguments))
	}
	fmt.Fprintln(w)
}
