package cron

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
)

// ListOptions are `cron list`'s.
type ListOptions struct {
	IO *cmdutil.IOStreams
	// File is the job file; empty is serve's (ALBERT_CODE_CRON_MODE_FILE).
	File string
	// Count is how many fire times to show per job.
	Count int
	// From lists fire times after this time, RFC 3339; empty is now.
	From string
	JSON bool
	Now  func() time.Time
}

// NewCmdList is `cron list [FILE]`; runF replaces the listing.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Now: f.Now}
	cmd := &cobra.Command{
		Use:   "list [FILE]",
		Short: "List the jobs and their next fire times (FILE defaults to ALBERT_CODE_CRON_MODE_FILE)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.File = args[0]
			} else {
				opts.File = serveSettings(f).Cron.File
			}
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmd.Flags().IntVar(&opts.Count, "count", 3, "fire times to show per job")
	cmd.Flags().StringVar(&opts.From, "from", "", "list fire times after this time, RFC 3339 (default: now)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func listRun(opts *ListOptions) error {
	if opts.File == "" {
		return cmdutil.UsageError("cron list: give the job file, or set ALBERT_CODE_CRON_MODE_FILE")
	}
	if opts.Count < 1 {
		return cmdutil.UsageError("--count: want at least 1, got %d", opts.Count)
	}
	now := opts.Now()
	if opts.From != "" {
		t, err := time.Parse(time.RFC3339, opts.From)
		if err != nil {
			return cmdutil.UsageError("--from: want a time such as 2026-12-01T09:00:00Z, got %q", opts.From)
		}
		now = t
	}
	f, err := LoadFile(opts.File, opts.Now())
	if err != nil {
		return err
	}
	rows := listing(f, now, opts.Count)
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rows)
	}
	printListing(opts.IO.Out, rows)
	return nil
}

// jobListing is one job of `cron list`.
type jobListing struct {
	Name      string      `json:"name"`
	Schedule  string      `json:"schedule"`
	Timezone  string      `json:"timezone"`
	Workspace string      `json:"workspace"`
	Enabled   bool        `json:"enabled"`
	Next      []time.Time `json:"next"`
}

func listing(f *cron.File, now time.Time, count int) []jobListing {
	rows := make([]jobListing, 0, len(f.Jobs))
	for _, j := range f.Jobs {
		row := jobListing{Name: j.Name, Schedule: j.Schedule.Spec, Timezone: j.Schedule.Location.String(), Workspace: j.Workspace, Enabled: j.Enabled, Next: []time.Time{}}
		for t := now; len(row.Next) < count; {
			t = j.Schedule.Next(t)
			if t.IsZero() {
				break
			}
			row.Next = append(row.Next, t)
		}
		rows = append(rows, row)
	}
	return rows
}

func printListing(w io.Writer, rows []jobListing) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tSCHEDULE\tZONE\tWORKSPACE\tNEXT")
	for _, r := range rows {
		next := make([]string, len(r.Next))
		for i, t := range r.Next {
			next[i] = t.Format("2006-01-02 15:04:05 MST")
		}
		when := strings.Join(next, ", ")
		if !r.Enabled {
			when = "disabled"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, r.Schedule, r.Timezone, r.Workspace, when)
	}
	tw.Flush()
}
